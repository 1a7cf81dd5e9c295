import { Anchor, Badge, Card, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconExternalLink } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useNodeTypes } from '@/api/nodeTypes';
import { useSettings } from '@/api/settings';
import { useVersionInfo } from '@/api/versions';
import { modalSize } from '@/core/modals/modalStack';
import { timeAgo, formatDateTime } from '@/core/timeAgo';
import { descriptionText, versionMarkers, type Version, type VersionMarker } from '@/core/versions/versions';
import { closeModal, StackedDrawer, type HostedModalProps } from '@/components/modalHost';
import { NodeIcon } from '@/components/NodeIcon';
import classes from './versions.module.css';

const MARKER_COLOR: Record<VersionMarker, string> = { securityFix: 'red', securityIssue: 'orange', breaking: 'yellow' };

function VersionCard({ version }: { version: Version }) {
  const { t } = useTranslation();
  const { index } = useNodeTypes();
  const description = descriptionText(version.description);
  const nodes = version.nodes ?? [];
  const title = (
    <Group gap={6} wrap="nowrap">
      <Text fw={600}>{t('versions.versionName', { name: version.name })}</Text>
      {version.documentationUrl ? <IconExternalLink size={14} className={classes.linkIcon} /> : null}
    </Group>
  );
  return (
    <Card withBorder radius="md" padding="md" className={classes.card} data-test-id="version-card" data-name={version.name}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <Stack gap={2}>
          {version.documentationUrl ? (
            <Anchor href={version.documentationUrl} target="_blank" rel="noreferrer" c="inherit" underline="hover" data-test-id="version-card-link">
              {title}
            </Anchor>
          ) : (
            title
          )}
          <Tooltip label={formatDateTime(version.createdAt)} withArrow position="bottom-start" disabled={formatDateTime(version.createdAt) === ''}>
            <Text size="xs" c="dimmed" data-test-id="version-card-released">
              {t('versions.released', { timeAgo: timeAgo(version.createdAt) })}
            </Text>
          </Tooltip>
        </Stack>
        <Group gap={4} justify="flex-end">
          {versionMarkers(version).map((marker) => (
            <Badge key={marker} size="sm" variant="light" color={MARKER_COLOR[marker]} leftSection={marker === 'securityIssue' ? <IconAlertTriangle size={12} /> : null} data-test-id={`version-marker-${marker}`}>
              {t(`versions.marker.${marker}`)}
            </Badge>
          ))}
        </Group>
      </Group>
      {description !== '' ? (
        <Text size="sm" mt="xs" className={classes.description}>
          {description}
        </Text>
      ) : null}
      {nodes.length > 0 ? (
        <Group gap={6} mt="sm" data-test-id="version-card-nodes">
          {nodes.map((node) => (
            <Tooltip key={node.name} label={node.displayName} withArrow>
              <span className={classes.nodeIcon} aria-label={node.displayName}>
                <NodeIcon type={index.get(node.name)} size={18} fallbackLabel={node.displayName} />
              </span>
            </Tooltip>
          ))}
        </Group>
      ) : null}
    </Card>
  );
}

/** The updates drawer (spec 002 §2 'versions': from the left, 520 px): the newer versions, newest first. */
export function VersionsDrawer({ opened }: HostedModalProps) {
  const { t } = useTranslation();
  const { settings } = useSettings();
  const { current, next } = useVersionInfo(settings);
  const size = modalSize('versions');
  const { infoUrl } = settings.versionNotifications;
  return (
    <StackedDrawer
      opened={opened}
      onClose={() => closeModal('versions', 'close')}
      position="left"
      size={size.kind === 'drawer' ? size.size : undefined}
      title={<Text fw={700} size="lg">{t('versions.title')}</Text>}
      attributes={{ content: { 'data-test-id': 'versions-drawer' } }}
    >
      <Stack gap="md">
        <Text size="sm" c="dimmed" data-test-id="versions-summary">
          {current
            ? t('versions.summaryWithDate', { version: settings.versionCli, timeAgo: timeAgo(current.createdAt), count: next.length })
            : t('versions.summary', { version: settings.versionCli, count: next.length })}
        </Text>
        {infoUrl ? (
          <Anchor href={infoUrl} target="_blank" rel="noreferrer" size="sm" data-test-id="versions-info-link">
            <Group gap={4} component="span" wrap="nowrap">
              {t('versions.howToUpdate')}
              <IconExternalLink size={14} />
            </Group>
          </Anchor>
        ) : null}
        {next.map((version) => (
          <VersionCard key={version.name} version={version} />
        ))}
      </Stack>
    </StackedDrawer>
  );
}
