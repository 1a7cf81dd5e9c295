import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { routePath } from '@/core/routes';
import { Logo } from '@/components/Logo';
import classes from './NotFoundView.module.css';

/** Any unknown path, and template pages while templates are disabled (spec 000 §2). */
export function NotFoundView() {
  const { t } = useTranslation();
  return (
    <Center mih="100vh" bg="gray.0" p="xl">
      <Stack align="center" gap="lg">
        <Logo size={40} />
        <Text className={classes.code} data-test-id="not-found-code">
          404
        </Text>
        <Title order={1} size="h3" ta="center">
          {t('error.pageNotFound')}
        </Title>
        <Button component={Link} to={routePath('Homepage')} leftSection={<IconArrowLeft size={16} />} variant="light">
          {t('error.goBack')}
        </Button>
      </Stack>
    </Center>
  );
}
