import { Button, Group, Skeleton, Stack, Title, Typography } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useTemplate } from '@/api/templates';
import { renderDescription } from './markdown';
import { TemplateDetails } from './TemplateDetails';
import { BackToTemplates, TemplateNotFound } from './TemplateNotFound';
import { TemplatePreview } from './TemplatePreview';
import { useOpenLink } from './useOpenLink';
import { useTemplatesEndpoint } from './useTemplatesEndpoint';
import classes from './templates.module.css';

/** A template's page (spec 000 §2): title, Use this workflow, the preview, description, details. */
export function TemplatesWorkflowView() {
  const { t } = useTranslation();
  const { id } = useParams();
  const { endpoint } = useTemplatesEndpoint();
  const { data, error } = useTemplate(endpoint, id);
  const template = data?.workflow;
  const use = useOpenLink(`/workflows/templates/${id ?? ''}`);
  const description = useMemo(() => renderDescription(template?.description ?? ''), [template?.description]);

  if (error !== undefined) {
    return (
      <div className={classes.page}>
        <TemplateNotFound message={t('templates.workflowsNotFound')} />
      </div>
    );
  }
  return (
    <div className={classes.page} data-test-id="template-view">
      <BackToTemplates />
      <Group justify="space-between" align="flex-start" wrap="nowrap" className={classes.header}>
        {template ? (
          <Title order={1} size="h2" data-test-id="template-name">
            {template.name}
          </Title>
        ) : (
          <Skeleton height={28} width={360} />
        )}
        <Button size="md" disabled={!template} onClick={use} data-test-id="use-template-button">
          {t('templates.useThisWorkflowButton')}
        </Button>
      </Group>
      <TemplatePreview workflow={template?.workflow} />
      <div className={classes.detailLayout}>
        <div className={classes.description}>
          {template ? (
            <Typography>
              {/* Rendered from markdown with raw HTML escaped and unsafe links dropped. */}
              <div dangerouslySetInnerHTML={{ __html: description }} data-test-id="template-description" />
            </Typography>
          ) : (
            <Stack gap={10}>
              <Skeleton height={12} />
              <Skeleton height={12} width="90%" />
              <Skeleton height={12} width="75%" />
            </Stack>
          )}
        </div>
        {template ? (
          <TemplateDetails nodes={template.nodes} categories={template.categories} createdAt={template.createdAt} author={template.user.username} totalViews={template.totalViews} />
        ) : null}
      </div>
    </div>
  );
}
