import { Anchor, Center, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Logo } from '@/components/Logo';
import classes from './auth.module.css';

interface AuthLayoutProps {
  title: string;
  /** data-test-id of the card, named after the screen. */
  testId: string;
  /** Below the card: links to the other auth screens. */
  footer?: ReactNode;
  children: ReactNode;
}

/** The frame of the signed-out screens: the logo above one centred card. */
export function AuthLayout({ title, testId, footer, children }: AuthLayoutProps) {
  const { t } = useTranslation();
  return (
    <Center className={classes.page}>
      <Stack gap="lg" className={classes.column}>
        <Group gap="xs" justify="center">
          <Logo size={36} />
          <Text fw={700} fz="xl">
            {t('app.name')}
          </Text>
        </Group>
        <Paper withBorder shadow="sm" radius="lg" p="xl" data-test-id={testId}>
          <Stack gap="lg">
            <Title order={1} fz="h3">
              {title}
            </Title>
            {children}
          </Stack>
        </Paper>
        {footer ? (
          <Text ta="center" size="sm" c="dimmed">
            {footer}
          </Text>
        ) : null}
      </Stack>
    </Center>
  );
}

/** A link in the footer of an auth screen. */
export function AuthFooterLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Anchor component={Link} to={to} size="sm" fw={500}>
      {children}
    </Anchor>
  );
}
