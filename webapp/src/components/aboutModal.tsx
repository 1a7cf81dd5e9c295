import { Button, Group, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { i18n } from '@/i18n';
import type { Settings } from '@/core/settings';

/** The about dialog: product version and instance id from the server settings. */
export function openAboutModal(settings: Settings): void {
  const id = modals.open({
    title: i18n.t('about.title'),
    centered: true,
    children: (
      <Stack gap="sm">
        <Group justify="space-between">
          <Text c="dimmed">{i18n.t('about.version')}</Text>
          <Text ff="monospace">{settings.versionCli}</Text>
        </Group>
        {settings.instanceId !== '' ? (
          <Group justify="space-between" wrap="nowrap">
            <Text c="dimmed">{i18n.t('about.instanceId')}</Text>
            <Text ff="monospace" size="sm" truncate>
              {settings.instanceId}
            </Text>
          </Group>
        ) : null}
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={() => modals.close(id)}>
            {i18n.t('about.close')}
          </Button>
        </Group>
      </Stack>
    ),
  });
}
