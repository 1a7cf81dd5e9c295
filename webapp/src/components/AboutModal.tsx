import { ActionIcon, Anchor, Button, CopyButton, Group, Stack, Table, Text, Tooltip } from '@mantine/core';
import { StackedModal } from '@/components/modalHost';
import { IconCheck, IconCopy, IconExternalLink } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useSettings } from '@/api/settings';
import { LICENSE_URL, SOURCE_CODE_URL } from '@/core/settings';
import { closeModal, type HostedModalProps } from './modalHost';
import { dialogSizeProps } from './modalHost/modalSize';
import classes from './AboutModal.module.css';

function ExternalLink({ href, label, testId }: { href: string; label: string; testId: string }) {
  return (
    <Anchor href={href} target="_blank" rel="noreferrer" size="sm" data-test-id={testId}>
      <Group gap={4} wrap="nowrap" component="span">
        {label}
        <IconExternalLink size={14} />
      </Group>
    </Anchor>
  );
}

/** The about dialog (spec 002 §2, 540 px): version, source code and licence links, the instance id to copy. */
export function AboutModal({ opened }: HostedModalProps) {
  const { t } = useTranslation();
  const { settings } = useSettings();
  const close = () => closeModal('about', 'close');
  return (
    <StackedModal opened={opened} onClose={close} title={t('about.title')} centered {...dialogSizeProps('about')} attributes={{ content: { 'data-test-id': 'about-modal' } }}>
      <Stack gap="md">
        <Table verticalSpacing={8} horizontalSpacing={0} withRowBorders>
          <Table.Tbody>
            <Table.Tr>
              <Table.Td w={150}>
                <Text c="dimmed" size="sm">
                  {t('about.version')}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text ff="monospace" size="sm" data-test-id="about-version">
                  {settings.versionCli}
                </Text>
              </Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Td>
                <Text c="dimmed" size="sm">
                  {t('about.sourceCode')}
                </Text>
              </Table.Td>
              <Table.Td>
                <ExternalLink href={SOURCE_CODE_URL} label={SOURCE_CODE_URL.replace(/^https:\/\//, '')} testId="about-source-code" />
              </Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Td>
                <Text c="dimmed" size="sm">
                  {t('about.license')}
                </Text>
              </Table.Td>
              <Table.Td>
                <ExternalLink href={LICENSE_URL} label={t('about.licenseName')} testId="about-license" />
              </Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
        {settings.instanceId !== '' ? (
          <Stack gap={4}>
            <Text c="dimmed" size="sm">
              {t('about.instanceId')}
            </Text>
            {/* Shown whole (it is pasted into support requests), wrapping if it must, with a copy button. */}
            <Group gap="xs" wrap="nowrap" align="center" className={classes.idBox}>
              <Text ff="monospace" size="sm" className={classes.id} data-test-id="about-instance-id">
                {settings.instanceId}
              </Text>
              <CopyButton value={settings.instanceId} timeout={1500}>
                {({ copied, copy }) => (
                  <Tooltip label={copied ? t('about.copied') : t('about.copyInstanceId')} withArrow position="left">
                    <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} onClick={copy} aria-label={t('about.copyInstanceId')} data-test-id="about-copy-instance-id">
                      {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                    </ActionIcon>
                  </Tooltip>
                )}
              </CopyButton>
            </Group>
          </Stack>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={close} data-test-id="about-close">
            {t('about.close')}
          </Button>
        </Group>
      </Stack>
    </StackedModal>
  );
}
