import { Skeleton, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { NODE_LIST_DEFAULT_LIMIT } from '@/core/templates/search';
import type { CollectionSummary } from '@/core/templates/types';
import { TemplateNodeIcons } from './TemplateNodeIcons';
import classes from './templates.module.css';

/** A collection in the carousel: name, how many workflows, its nodes; a link to the collection. */
export function CollectionCard({ collection }: { collection: CollectionSummary }) {
  const { t } = useTranslation();
  return (
    <Link to={`/collections/${collection.id}`} className={classes.collectionCard} data-test-id="collection-card" data-collection-id={collection.id}>
      <Stack gap={4}>
        <Text fw={600} lineClamp={2} className={classes.collectionName}>
          {collection.name}
        </Text>
        <Text fz="sm" c="dimmed">
          {t('templates.workflowCount', { count: collection.workflows.length })}
        </Text>
      </Stack>
      <TemplateNodeIcons nodes={collection.nodes} limit={NODE_LIST_DEFAULT_LIMIT} size={18} />
    </Link>
  );
}

export function CollectionCardSkeleton() {
  return (
    <div className={classes.collectionCard} data-test-id="collection-card-skeleton">
      <Stack gap={8}>
        <Skeleton height={14} width="70%" />
        <Skeleton height={10} width="40%" />
      </Stack>
      <Skeleton height={30} width="60%" />
    </div>
  );
}
