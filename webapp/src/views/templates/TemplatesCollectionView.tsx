import { Group, Skeleton, Stack, Title, Typography } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useTemplateCollection } from '@/api/templates';
import { SKELETON_CARDS } from '@/core/templates/search';
import { renderDescription } from './markdown';
import { TemplateCard, TemplateCardSkeleton } from './TemplateCard';
import { TemplateDetails } from './TemplateDetails';
import { BackToTemplates, TemplateNotFound } from './TemplateNotFound';
import { useTemplatesEndpoint } from './useTemplatesEndpoint';
import classes from './templates.module.css';

/** A collection's page (spec 000 §2): name, description, its workflows, details. */
export function TemplatesCollectionView() {
  const { t } = useTranslation();
  const { id } = useParams();
  const { endpoint } = useTemplatesEndpoint();
  const { data, error } = useTemplateCollection(endpoint, id);
  const collection = data?.collection;
  const description = useMemo(() => renderDescription(collection?.description ?? ''), [collection?.description]);

  if (error !== undefined) {
    return (
      <div className={classes.page}>
        <TemplateNotFound message={t('templates.collectionsNotFound')} />
      </div>
    );
  }
  return (
    <div className={classes.page} data-test-id="collection-view">
      <BackToTemplates />
      <Group className={classes.header}>
        {collection ? (
          <Stack gap={2}>
            <Title order={5} c="dimmed" tt="uppercase" fz="xs">
              {t('templates.collection')}
            </Title>
            <Title order={1} size="h2" data-test-id="collection-name">
              {collection.name}
            </Title>
          </Stack>
        ) : (
          <Skeleton height={28} width={320} />
        )}
      </Group>
      <div className={classes.detailLayout}>
        <Stack gap="lg" className={classes.description}>
          {collection ? (
            <Typography>
              <div dangerouslySetInnerHTML={{ __html: description }} data-test-id="collection-description" />
            </Typography>
          ) : (
            <Skeleton height={12} width="80%" />
          )}
          <div className={classes.list} data-test-id="collection-workflows">
            {collection
              ? collection.workflows.map((template) => <TemplateCard key={template.id} template={template} useWorkflowButton />)
              : Array.from({ length: SKELETON_CARDS }, (_, i) => <TemplateCardSkeleton key={i} />)}
          </div>
        </Stack>
        {collection ? <TemplateDetails nodes={collection.nodes} categories={collection.categories} createdAt={collection.createdAt} /> : null}
      </div>
    </div>
  );
}
