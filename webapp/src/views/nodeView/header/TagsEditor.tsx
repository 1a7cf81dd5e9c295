import { Badge, Group, MultiSelect, UnstyledButton } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSWRConfig } from 'swr';
import { visibleTags } from '@/core/editor/workflowList';
import type { Tag } from '@/core/workflow/types';
import { createTag, TAGS_KEY, useTags } from '@/api/workflows';
import { showToast } from '@/components/toast';
import { errorMessage } from '@/views/nodeView/editorToasts';
import classes from './header.module.css';

/** Tags the header shows before the '+N' overflow. */
export const HEADER_TAG_LIMIT = 20;
const CREATE_PREFIX = '\u0000create:';

export function TagList({ tags, limit, testId }: { tags: readonly Tag[]; limit: number; testId?: string }) {
  const { shown, hidden } = visibleTags(tags, limit);
  return (
    <Group gap={4} wrap="nowrap" data-test-id={testId}>
      {shown.map((tag) => (
        <Badge key={tag.id} variant="light" color="gray" radius="sm" tt="none" data-test-id="workflow-tag">
          {tag.name}
        </Badge>
      ))}
      {hidden > 0 ? (
        <Badge variant="outline" color="gray" radius="sm" data-test-id="workflow-tags-more">
          +{hidden}
        </Badge>
      ) : null}
    </Group>
  );
}

/** The header tags: a list, and a select that saves on blur when the set changed. */
export function TagsEditor({ tagIds, readOnly, onChange }: { tagIds: readonly string[]; readOnly: boolean; onChange: (ids: string[]) => void }) {
  const { t } = useTranslation();
  const { data: allTags = [] } = useTags();
  const { mutate } = useSWRConfig();
  const [draft, setDraft] = useState<string[] | null>(null);
  const [search, setSearch] = useState('');
  const byId = new Map(allTags.map((tag) => [tag.id, tag]));
  const tags = tagIds.map((id) => byId.get(id)).filter((tag): tag is Tag => tag !== undefined);

  if (draft === null) {
    return (
      <div className={classes.tags}>
        {tags.length > 0 ? (
          <UnstyledButton onClick={() => !readOnly && setDraft([...tagIds])} aria-label={t('workflow.tags.edit')} data-test-id="workflow-tags">
            <TagList tags={tags} limit={HEADER_TAG_LIMIT} />
          </UnstyledButton>
        ) : !readOnly ? (
          <UnstyledButton className={classes.addTag} onClick={() => setDraft([])} data-test-id="workflow-tags">
            {t('workflow.tags.add')}
          </UnstyledButton>
        ) : null}
      </div>
    );
  }

  const trimmed = search.trim();
  const exists = allTags.some((tag) => tag.name.toLowerCase() === trimmed.toLowerCase());
  const options = [
    ...allTags.map((tag) => ({ value: tag.id, label: tag.name })),
    ...(trimmed !== '' && !exists ? [{ value: `${CREATE_PREFIX}${trimmed}`, label: t('workflow.tags.create', { name: trimmed }) }] : []),
  ];

  const commit = () => {
    const next = draft;
    setDraft(null);
    const same = next.length === tagIds.length && next.every((id, i) => id === tagIds[i]);
    if (!same) onChange(next);
  };

  return (
    <MultiSelect
      className={classes.tagsSelect}
      data-test-id="workflow-tags"
      aria-label={t('workflow.tags.label')}
      data={options}
      value={draft}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      autoFocus
      defaultDropdownOpened
      size="xs"
      maxDropdownHeight={260}
      placeholder={t('workflow.tags.placeholder')}
      onBlur={commit}
      onKeyDown={(event) => {
        if (event.key === 'Escape') setDraft(null);
      }}
      onChange={async (values) => {
        const created = values.find((value) => value.startsWith(CREATE_PREFIX));
        if (!created) {
          setDraft(values);
          return;
        }
        try {
          const tag = await createTag(created.slice(CREATE_PREFIX.length));
          await mutate(TAGS_KEY);
          setDraft(values.map((value) => (value === created ? tag.id : value)));
          setSearch('');
        } catch (error) {
          showToast({ type: 'error', title: t('workflow.tags.createError'), message: errorMessage(error) });
        }
      }}
    />
  );
}
