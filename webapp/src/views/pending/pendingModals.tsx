import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { i18n } from '@/i18n';

/** The credentials dialog is not built yet; its sidebar entry opens this. */
export function openPendingModal(name: 'Credentials'): void {
  modals.open({
    title: i18n.t(`screen.${name}`),
    centered: true,
    children: <Text c="dimmed">{i18n.t('pending.notice')}</Text>,
  });
}
