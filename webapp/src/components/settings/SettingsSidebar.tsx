import { Anchor, NavLink, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconArrowLeft, IconPlugConnected, IconUser, IconUsers, type Icon } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { canAccessRoute, type AccessContext } from '@/core/access';
import { routePath, type RouteName } from '@/core/routes';
import type { Settings } from '@/core/settings';
import { openModal } from '@/components/modalHost';
import classes from './settings.module.css';

interface Entry {
  route: RouteName;
  label: string;
  icon: Icon;
  testId: string;
}

interface SettingsSidebarProps {
  active: RouteName;
  settings: Settings;
  access: AccessContext;
}

/** The settings pages' sidebar: an entry per page the user may reach, the version, and the way back. */
export function SettingsSidebar({ active, settings, access }: SettingsSidebarProps) {
  const { t } = useTranslation();
  const entries: Entry[] = [
    { route: 'PersonalSettings', label: t('settingsSidebar.personal'), icon: IconUser, testId: 'menu-item-personal' },
    { route: 'UsersSettings', label: t('settingsSidebar.users'), icon: IconUsers, testId: 'menu-item-users' },
    { route: 'APISettings', label: t('settingsSidebar.api'), icon: IconPlugConnected, testId: 'menu-item-api' },
  ];
  return (
    <nav className={classes.sidebar} data-test-id="settings-sidebar" aria-label={t('settingsSidebar.title')}>
      <UnstyledButton component={Link} to={routePath('Homepage')} className={classes.back} data-test-id="settings-back">
        <IconArrowLeft size={18} />
        <Text fw={600} fz="lg">
          {t('settingsSidebar.title')}
        </Text>
      </UnstyledButton>
      <Stack gap={4} mt="md">
        {entries
          .filter((entry) => canAccessRoute(entry.route, access))
          .map((entry) => (
            <NavLink
              key={entry.route}
              component={Link}
              to={routePath(entry.route)}
              label={entry.label}
              leftSection={<entry.icon size={18} stroke={1.7} />}
              active={entry.route === active}
              className={classes.navLink}
              data-test-id={entry.testId}
            />
          ))}
      </Stack>
      <div className={classes.spacer} />
      <Anchor component="button" type="button" size="sm" c="dimmed" onClick={() => openModal('about', {})} data-test-id="settings-version">
        {t('settingsSidebar.version', { version: settings.versionCli })}
      </Anchor>
    </nav>
  );
}
