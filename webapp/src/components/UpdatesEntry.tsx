import { Badge, Drawer, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { IconGift } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatUpdateCount } from '@/core/editor/commands';
import { useSettings } from '@/api/settings';
import { useNewerVersions } from '@/api/versions';
import classes from './MainSidebar.module.css';

/** The sidebar's updates-available entry (count capped at 99+) and the versions drawer. */
export function UpdatesEntry() {
  const { t } = useTranslation();
  const { settings } = useSettings();
  const versions = useNewerVersions(settings);
  const [open, setOpen] = useState(false);
  if (versions.length === 0) return null;
  const label = t('mainSidebar.updates', { count: versions.length });
  return (
    <>
      <Tooltip label={label} position="right" withArrow>
        <UnstyledButton className={classes.entry} aria-label={label} onClick={() => setOpen(true)} data-test-id="main-sidebar-updates" style={{ position: 'relative' }}>
          <IconGift size={22} stroke={1.6} />
          <Badge size="xs" circle={versions.length < 10} color="flowmill" style={{ position: 'absolute', top: 2, right: 0 }}>
            {formatUpdateCount(versions.length)}
          </Badge>
        </UnstyledButton>
      </Tooltip>
      <Drawer opened={open} onClose={() => setOpen(false)} position="left" size={520} title={t('versions.title')}>
        <Stack>
          {versions.map((version) => (
            <Stack key={version.name} gap={2}>
              <Text fw={600}>
                {version.name}
                {version.hasSecurityIssue || version.hasSecurityFix ? ` · ${t('versions.securityFix')}` : ''}
              </Text>
              <Text size="xs" c="dimmed">
                {new Date(version.createdAt).toLocaleDateString()}
              </Text>
              {version.description ? <Text size="sm">{version.description.replace(/<[^>]*>/g, '')}</Text> : null}
            </Stack>
          ))}
        </Stack>
      </Drawer>
    </>
  );
}
