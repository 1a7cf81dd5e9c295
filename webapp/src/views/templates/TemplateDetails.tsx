import { Badge, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { timeAgo } from '@/core/timeAgo';
import type { TemplateCategory, TemplateNode } from '@/core/templates/types';
import { TemplateNodeIcons } from './TemplateNodeIcons';
import classes from './templates.module.css';

interface TemplateDetailsProps {
  nodes: readonly TemplateNode[];
  categories: readonly TemplateCategory[];
  createdAt?: string;
  author?: string;
  totalViews?: number;
}

/** The details block of a template or collection: nodes, categories, created, author, views. */
export function TemplateDetails({ nodes, categories, createdAt, author, totalViews }: TemplateDetailsProps) {
  const { t } = useTranslation();
  return (
    <Stack gap="lg" className={classes.details} data-test-id="template-details">
      <Title order={2} size="h5" tt="uppercase" c="dimmed">
        {t('templates.details.details')}
      </Title>
      {nodes.length > 0 ? (
        <Stack gap={6}>
          <Text fw={600} fz="sm">
            {t('templates.details.nodes')}
          </Text>
          <div data-test-id="template-details-nodes">
            <TemplateNodeIcons nodes={nodes} limit={nodes.length} size={20} wrap />
          </div>
        </Stack>
      ) : null}
      {categories.length > 0 ? (
        <Stack gap={6}>
          <Text fw={600} fz="sm">
            {t('templates.details.categories')}
          </Text>
          <Group gap={6}>
            {categories.map((c) => (
              <Badge key={c.id} component={Link} to={`/templates/?categories=${c.id}`} variant="light" color="gray" radius="sm" tt="none" className={classes.categoryBadge} data-test-id="template-details-category">
                {c.name}
              </Badge>
            ))}
          </Group>
        </Stack>
      ) : null}
      {createdAt ? (
        <Stack gap={2}>
          <Text fw={600} fz="sm">
            {t('templates.details.created')}
          </Text>
          <Text fz="sm" c="dimmed" data-test-id="template-details-created">
            {timeAgo(createdAt)}
            {author ? ` ${t('templates.details.by')} ${author}` : ''}
          </Text>
        </Stack>
      ) : null}
      {totalViews !== undefined ? (
        <Stack gap={2}>
          <Text fw={600} fz="sm">
            {t('templates.details.viewed')}
          </Text>
          <Text fz="sm" c="dimmed" data-test-id="template-details-views">
            {t('templates.details.times', { count: totalViews })}
          </Text>
        </Stack>
      ) : null}
    </Stack>
  );
}
