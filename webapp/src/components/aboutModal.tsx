import { ActionIcon, Button, CopyButton, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import classes from './aboutModal.module.css';
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
          <Stack gap={4}>
            <Text c="dimmed">{i18n.t('about.instanceId')}</Text>
            {/* Shown whole (it is pasted into support requests), wrapping if it must, with a copy button. */}
            <Group gap="xs" wrap="nowrap" align="center" className={classes.idBox}>
              <Text ff="monospace" size="sm" className={classes.id} data-test-id="about-instance-id">
                {settings.instanceId}
              </Text>
              <CopyButton value={settings.instanceId} timeout={1500}>
                {({ copied, copy }) => (
                  <Tooltip label={copied ? i18n.t('about.copied') : i18n.t('about.copyInstanceId')} withArrow position="left">
                    <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} onClick={copy} aria-label={i18n.t('about.copyInstanceId')} data-test-id="about-copy-instance-id">
                      {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                    </ActionIcon>
                  </Tooltip>
                )}
              </CopyButton>
            </Group>
          </Stack>
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
