import { Badge, Tooltip, UnstyledButton } from '@mantine/core';
import { IconGift } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useSettings } from '@/api/settings';
import { useNewerVersions } from '@/api/versions';
import { formatUpdateCount } from '@/core/versions/versions';
import { openModal } from './modalHost';
import classes from './MainSidebar.module.css';

/** The sidebar's updates-available entry (count capped at 99+); it opens the updates drawer. */
export function UpdatesEntry() {
  const { t } = useTranslation();
  const { settings } = useSettings();
  const versions = useNewerVersions(settings);
  if (versions.length === 0) return null;
  const label = t('mainSidebar.updates', { count: versions.length });
  return (
    <Tooltip label={label} position="right" withArrow>
      <UnstyledButton className={classes.entry} aria-label={label} onClick={() => openModal('versions', {})} data-test-id="main-sidebar-updates" style={{ position: 'relative' }}>
        <IconGift size={22} stroke={1.6} />
        <Badge size="xs" circle={versions.length < 10} color="flowmill" style={{ position: 'absolute', top: 2, right: 0 }} data-test-id="main-sidebar-updates-count">
          {formatUpdateCount(versions.length)}
        </Badge>
      </UnstyledButton>
    </Tooltip>
  );
}
