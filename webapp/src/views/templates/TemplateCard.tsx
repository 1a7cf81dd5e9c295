import { Button, Group, Skeleton, Stack, Text } from '@mantine/core';
import { IconEye } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { timeAgo } from '@/core/timeAgo';
import { CARD_NODE_ICON_LIMIT } from '@/core/templates/search';
import type { TemplateSummary } from '@/core/templates/types';
import { TemplateNodeIcons } from './TemplateNodeIcons';
import { useOpenLink } from './useOpenLink';
import classes from './templates.module.css';

/** One template of a list: name, age, author and views, its node icons; opens the template. */
export function TemplateCard({ template, useWorkflowButton = false }: { template: TemplateSummary; useWorkflowButton?: boolean }) {
  const { t } = useTranslation();
  const open = useOpenLink(`/templates/${template.id}`);
  const use = useOpenLink(`/workflows/templates/${template.id}`);
  return (
    <div
      className={classes.templateCard}
      role="link"
      tabIndex={0}
      onClick={open}
      onKeyDown={(event) => {
        if (event.key === 'Enter') open(event);
      }}
      data-test-id="template-card"
      data-template-id={template.id}
    >
      <Stack gap={4} className={classes.templateCardText}>
        <Text fw={600} className={classes.templateName}>
          {template.name}
        </Text>
        <Group gap={6} c="dimmed" fz="sm" wrap="nowrap">
          <span>{timeAgo(template.createdAt)}</span>
          <span aria-hidden="true">·</span>
          <span>{t('templates.byAuthor', { name: template.user.username })}</span>
          <span aria-hidden="true">·</span>
          <IconEye size={14} aria-hidden="true" />
          <span>{t('templates.views', { count: template.totalViews })}</span>
        </Group>
      </Stack>
      <div className={classes.templateCardSide}>
        <TemplateNodeIcons nodes={template.nodes} limit={CARD_NODE_ICON_LIMIT} />
        {useWorkflowButton ? (
          <Button
            size="xs"
            className={classes.useButton}
            data-test-id="use-workflow-button"
            onClick={(event) => {
              event.stopPropagation();
              use(event);
            }}
          >
            {t('templates.useWorkflowButton')}
          </Button>
        ) : null}
      </div>
    </div>
  );
}

/** A loading placeholder of a template card. */
export function TemplateCardSkeleton() {
  return (
    <div className={classes.templateCard} data-test-id="template-card-skeleton">
      <Stack gap={8} className={classes.templateCardText}>
        <Skeleton height={14} width="55%" />
        <Skeleton height={10} width="30%" />
      </Stack>
      <Group gap={6}>
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} height={34} width={34} radius="sm" />
        ))}
      </Group>
    </div>
  );
}
