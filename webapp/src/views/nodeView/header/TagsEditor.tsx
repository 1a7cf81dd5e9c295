import { Badge, Group, MultiSelect, UnstyledButton } from '@mantine/core';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSWRConfig } from 'swr';
import { typedTag, withTagId } from '@/core/editor/tagInput';
import { visibleTags } from '@/core/editor/workflowList';
import type { Tag } from '@/core/workflow/types';
import { createTag, TAGS_KEY, useTags } from '@/api/workflows';
import { openModal } from '@/components/modalHost';
import { showToast } from '@/components/toast';
import { errorMessage } from '@/views/nodeView/editorToasts';
import classes from './header.module.css';

/** Tags the header shows before the '+N' overflow. */
export const HEADER_TAG_LIMIT = 20;
const CREATE_PREFIX = '\u0000create:';
/** The dropdown entry that opens the tags manager. */
const MANAGE_TAGS = '\u0000manage';

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
  // Arrow keys picked an option in the list: Enter then takes that option, not the typed text.
  const navigated = useRef(false);
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
    // The last entry opens the tags manager, as n8n's dropdown does.
    { value: MANAGE_TAGS, label: `⚙ ${t('tagsManager.open')}` },
  ];

  /** The ids with the typed tag added: an existing tag of that name, else a new one. */
  const withTyped = async (ids: string[], text: string): Promise<string[]> => {
    const typed = typedTag(allTags, text);
    if (typed === null) return ids;
    if ('id' in typed) return withTagId(ids, typed.id);
    try {
      const tag = await createTag(typed.create);
      await mutate(TAGS_KEY);
      return withTagId(ids, tag.id);
    } catch (error) {
      showToast({ type: 'error', title: t('workflow.tags.createError'), message: errorMessage(error) });
      return ids;
    }
  };

  // Clicking away applies the tags, the typed one included (n8n saves on blur).
  const commit = () => {
    const base = draft;
    // Already applied (the "Manage tags" entry applies the draft before the manager takes focus).
    if (base === null) return;
    setDraft(null);
    setSearch('');
    void (async () => {
      const next = await withTyped(base, trimmed);
      const same = next.length === tagIds.length && next.every((id, i) => id === tagIds[i]);
      if (!same) onChange(next);
    })();
  };

  // Enter creates (or picks) the typed tag and clears the input for the next one.
  const onEnter = async () => {
    setSearch('');
    setDraft(await withTyped(draft, trimmed));
  };

  return (
    <div
      className={classes.tagsSelect}
      onKeyDownCapture={(event) => {
        if (event.key === 'ArrowDown' || event.key === 'ArrowUp') navigated.current = true;
        if (event.key !== 'Enter' || trimmed === '' || navigated.current) return;
        event.preventDefault();
        event.stopPropagation();
        void onEnter();
      }}
    >
      <MultiSelect
        data-test-id="workflow-tags"
        aria-label={t('workflow.tags.label')}
        data={options}
        value={draft}
        searchable
        searchValue={search}
        onSearchChange={(value) => {
          navigated.current = false;
          setSearch(value);
        }}
        autoFocus
        defaultDropdownOpened
        size="xs"
        maxDropdownHeight={260}
        placeholder={t('workflow.tags.placeholder')}
        onBlur={commit}
        onKeyDown={(event) => {
          if (event.key !== 'Escape') return;
          setDraft(null);
          setSearch('');
        }}
        onChange={async (values) => {
          if (values.includes(MANAGE_TAGS)) {
            const kept = values.filter((value) => value !== MANAGE_TAGS && !value.startsWith(CREATE_PREFIX));
            setDraft(null);
            setSearch('');
            const same = kept.length === tagIds.length && kept.every((id, i) => id === tagIds[i]);
            if (!same) onChange(kept);
            openModal('tagsManager', {});
            return;
          }
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
    </div>
  );
}
