import { Badge, Group, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import type { RouteName } from '@/core/routes';
import { SettingsSidebar } from './SettingsSidebar';
import { useAccess } from './useAccess';
import classes from './settings.module.css';

interface SettingsLayoutProps {
  active: RouteName;
  title: string;
  /** Marks the page as beta next to its title. */
  badge?: string;
  /** Next to the title, on the right. */
  actions?: ReactNode;
  testId: string;
  children: ReactNode;
}

/** A settings page: the settings sidebar, then the page title and its content. */
export function SettingsLayout({ active, title, badge, actions, testId, children }: SettingsLayoutProps) {
  const { settings, access } = useAccess();
  return (
    <div className={classes.layout}>
      <SettingsSidebar active={active} settings={settings} access={access} />
      <main className={classes.content} data-test-id={testId}>
        <Stack gap="xl" className={classes.inner}>
          <Group justify="space-between" align="center" wrap="nowrap" mih={42}>
            <Group gap="sm" align="center">
              <Title order={1} fz="h2">
                {title}
              </Title>
              {badge ? (
                <Badge variant="light" color="flowmill" size="sm" data-test-id="settings-badge">
                  {badge}
                </Badge>
              ) : null}
            </Group>
            {actions}
          </Group>
          {children}
        </Stack>
      </main>
    </div>
  );
}
