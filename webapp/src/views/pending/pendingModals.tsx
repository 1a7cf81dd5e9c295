import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { i18n } from '../../i18n';

/** The credentials and executions dialogs are not built yet; their sidebar entries open this. */
export function openPendingModal(name: 'Credentials' | 'Executions'): void {
  modals.open({
    title: i18n.t(`screen.${name}`),
    centered: true,
    children: <Text c="dimmed">{i18n.t('pending.notice')}</Text>,
  });
}
