import { Button, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import classes from './templates.module.css';

/** The not-found state of a template or collection page. */
export function TemplateNotFound({ message }: { message: string }) {
  const { t } = useTranslation();
  return (
    <Stack align="center" gap="sm" className={classes.notFound} data-test-id="templates-not-found">
      <Title order={1} size="h3">
        {message}
      </Title>
      <Text c="dimmed">{t('templates.notFoundHint')}</Text>
      <Button component={Link} to="/templates/" state={{ templatesSession: true }} variant="light" leftSection={<IconArrowLeft size={16} />} mt="sm">
        {t('templates.backToTemplates')}
      </Button>
    </Stack>
  );
}

/** The link back to the search page, above a template or collection. */
export function BackToTemplates() {
  const { t } = useTranslation();
  return (
    <Button component={Link} to="/templates/" state={{ templatesSession: true }} variant="subtle" color="gray" size="compact-sm" leftSection={<IconArrowLeft size={14} />} className={classes.back} data-test-id="templates-back">
      {t('templates.backToTemplates')}
    </Button>
  );
}
