import { ActionIcon, Button, Group, Loader, Stack, Table, Text, TextInput, ThemeIcon, Tooltip } from '@mantine/core';
import { IconEdit, IconSearch, IconTags, IconTrash } from '@tabler/icons-react';
import { useEffect, useReducer, useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '@/api/currentUser';
import { ResponseError } from '@/api/fetcher';
import { createTag, deleteTag, refreshTagLists, renameTag, useTagsWithUsage } from '@/api/tags';
import {
  applyAction,
  canDeleteTags,
  initialTagsTable,
  showsEmptyState,
  TAG_FOCUS_DELAY_OPEN_MS,
  TAG_FOCUS_DELAY_ROW_MS,
  TAG_NAME_MAX_LENGTH,
  tagRows,
  tagsTableReducer,
  type TagRow,
} from '@/core/tags/tagsTable';
import { abbreviateNumber } from '@/core/format/abbreviate';
import { errorToastText } from '@/core/toastText';
import { userRole } from '@/core/user';
import { closeModal, StackedModal, type HostedModalProps } from '@/components/modalHost';
import { dialogSizeProps } from '@/components/modalHost/modalSize';
import { showToast } from '@/components/toast';
import classes from './tags.module.css';

/**
 * Mantine closes every open dialog on Escape unless the key comes from an element marked so: the
 * open row's input and buttons use Escape to cancel the row, leaving the dialogs open.
 */
const KEEP_DIALOGS = { 'data-mantine-stop-propagation': 'true' } as const;

/** Focuses an input after a delay (spec 002 §9: 350 ms when the manager opens, 100 ms for a row). */
function useDelayedFocus(ref: React.RefObject<HTMLInputElement | null>, delay: number, active: boolean) {
  useEffect(() => {
    if (!active) return;
    const timer = window.setTimeout(() => ref.current?.focus(), delay);
    return () => window.clearTimeout(timer);
  }, [ref, delay, active]);
}

function errorText(error: unknown): { message: string; details: string | null } {
  if (error instanceof ResponseError) return errorToastText(error);
  return { message: error instanceof Error ? error.message : String(error), details: null };
}

/**
 * The tags manager (spec 002 §2, §4 "Tags table", §8): a searchable table of tags with their
 * usage, one row at a time being created, renamed or confirming its deletion; Enter applies, Esc
 * cancels, nothing applies while saving. Deleting is for the owner and the default user.
 */
export function TagsManagerModal({ opened }: HostedModalProps) {
  const { t } = useTranslation();
  const { user } = useCurrentUser();
  const canDelete = canDeleteTags(user ? userRole(user) : null);
  const { data: tags, isLoading } = useTagsWithUsage();
  const [state, dispatch] = useReducer(tagsTableReducer, initialTagsTable);
  const searchRef = useRef<HTMLInputElement>(null);
  const rowRef = useRef<HTMLInputElement>(null);
  const list = tags ?? [];
  const rows = tagRows(list, state, canDelete);
  const editing = state.mode.kind === 'create' || state.mode.kind === 'update';
  const saving = state.mode.kind !== 'idle' && state.mode.saving;
  const empty = tags !== undefined && showsEmptyState(list, state);

  useDelayedFocus(searchRef, TAG_FOCUS_DELAY_OPEN_MS, tags !== undefined && !empty);
  useDelayedFocus(rowRef, TAG_FOCUS_DELAY_ROW_MS, editing && !saving);

  const close = () => closeModal('tagsManager', 'close');

  const apply = async () => {
    const action = applyAction(list, state);
    if (action === null) return;
    const mode = state.mode;
    const tagName = (id: string) => list.find((tag) => tag.id === id)?.name ?? '';
    switch (action.kind) {
      case 'unchanged':
        dispatch({ type: 'saved' });
        return;
      case 'emptyName':
        showToast({ type: 'error', title: mode.kind === 'create' ? t('tagsManager.createError.title') : t('tagsManager.renameError.title'), message: t('tagsManager.nameCannotBeEmpty') });
        return;
    }
    dispatch({ type: 'saving' });
    try {
      if (action.kind === 'create') await createTag(action.name);
      if (action.kind === 'rename') await renameTag(action.id, action.name);
      if (action.kind === 'delete') await deleteTag(action.id);
      await refreshTagLists();
      dispatch({ type: 'saved' });
      if (action.kind === 'rename') {
        showToast({ type: 'success', title: t('tagsManager.updated.title'), message: t('tagsManager.updated.message', { oldName: tagName(action.id), name: action.name }) });
      }
      if (action.kind === 'delete') {
        showToast({ type: 'success', title: t('tagsManager.deleted.title'), message: t('tagsManager.deleted.message', { name: tagName(action.id) }) });
      }
    } catch (error) {
      dispatch({ type: 'failed' });
      const { message, details } = errorText(error);
      const titleKey = action.kind === 'create' ? 'tagsManager.createError' : action.kind === 'rename' ? 'tagsManager.renameError' : 'tagsManager.deleteError';
      const name = action.kind === 'delete' ? tagName(action.id) : action.name;
      showToast({ type: 'error', title: t(`${titleKey}.title`), message: `${t(`${titleKey}.message`, { name })} ${message}`, details });
    }
  };

  // Enter applies and Esc cancels the open row; Esc closes the manager only when no row is open.
  const onKeyDown = (event: KeyboardEvent) => {
    if (state.mode.kind === 'idle') return;
    if (event.key === 'Enter') {
      event.preventDefault();
      void apply();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      dispatch({ type: 'cancel' });
    }
  };

  const nameCell = (row: TagRow) => {
    if (row.editing) {
      return (
        <TextInput
          ref={rowRef}
          size="xs"
          value={row.name}
          maxLength={TAG_NAME_MAX_LENGTH}
          placeholder={t('tagsManager.namePlaceholder')}
          aria-label={t('tagsManager.name')}
          disabled={saving}
          onChange={(event) => dispatch({ type: 'type', name: event.currentTarget.value })}
          data-test-id="tags-table-input"
          {...KEEP_DIALOGS}
        />
      );
    }
    if (row.confirmingDelete) {
      return (
        <Text size="sm" c="red.8" fw={500}>
          {t('tagsManager.confirmDelete')}
        </Text>
      );
    }
    return (
      <Text size="sm" fw={500} className={classes.name}>
        {row.name}
      </Text>
    );
  };

  const actionsCell = (row: TagRow) => {
    if (row.editing || row.confirmingDelete) {
      const confirmLabel = row.confirmingDelete ? t('tagsManager.deleteTag') : row.id === null ? t('tagsManager.createTag') : t('tagsManager.saveChanges');
      return (
        <Group gap={6} justify="flex-end" wrap="nowrap">
          <Button size="compact-sm" variant="default" onClick={() => dispatch({ type: 'cancel' })} disabled={saving} data-test-id="tags-table-cancel" {...KEEP_DIALOGS}>
            {t('tagsManager.cancel')}
          </Button>
          <Button size="compact-sm" color={row.confirmingDelete ? 'red' : undefined} onClick={() => void apply()} loading={saving} data-test-id="tags-table-apply" {...KEEP_DIALOGS}>
            {confirmLabel}
          </Button>
        </Group>
      );
    }
    if (row.id === null) return null;
    const tag = { id: row.id, name: row.name };
    return (
      <Group gap={2} justify="flex-end" wrap="nowrap" className={classes.actions}>
        <Tooltip label={t('tagsManager.editTag')} withArrow>
          <ActionIcon variant="subtle" color="gray" disabled={row.disabled} onClick={() => dispatch({ type: 'startUpdate', tag })} aria-label={t('tagsManager.editTag')} data-test-id="tags-table-edit" {...KEEP_DIALOGS}>
            <IconEdit size={16} />
          </ActionIcon>
        </Tooltip>
        {row.canDelete ? (
          <Tooltip label={t('tagsManager.deleteTag')} withArrow>
            <ActionIcon variant="subtle" color="gray" disabled={row.disabled} onClick={() => dispatch({ type: 'startDelete', id: tag.id })} aria-label={t('tagsManager.deleteTag')} data-test-id="tags-table-delete" {...KEEP_DIALOGS}>
              <IconTrash size={16} />
            </ActionIcon>
          </Tooltip>
        ) : null}
      </Group>
    );
  };

  const body = () => {
    if (tags === undefined && isLoading) {
      return (
        <Group justify="center" py="xl">
          <Loader size="sm" />
        </Group>
      );
    }
    if (empty) {
      return (
        <Stack align="center" gap="sm" py={48} data-test-id="tags-manager-empty">
          <ThemeIcon size={56} radius="xl" variant="light">
            <IconTags size={30} />
          </ThemeIcon>
          <Text fw={600} size="lg">
            {t('tagsManager.empty.title')}
          </Text>
          <Text c="dimmed" size="sm" ta="center" maw={380}>
            {t('tagsManager.empty.message')}
          </Text>
          <Button mt="xs" onClick={() => dispatch({ type: 'startCreate' })} data-test-id="tags-manager-create-first">
            {t('tagsManager.empty.create')}
          </Button>
        </Stack>
      );
    }
    return (
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <TextInput
            ref={searchRef}
            placeholder={t('tagsManager.search')}
            aria-label={t('tagsManager.search')}
            leftSection={<IconSearch size={16} />}
            value={state.search}
            onChange={(event) => dispatch({ type: 'search', text: event.currentTarget.value })}
            disabled={state.mode.kind !== 'idle'}
            data-test-id="tags-manager-search"
            className={classes.search}
          />
          <Button onClick={() => dispatch({ type: 'startCreate' })} disabled={state.mode.kind !== 'idle'} data-test-id="tags-manager-add">
            {t('tagsManager.addNew')}
          </Button>
        </Group>
        <Table.ScrollContainer minWidth={520} mah={320} type="native">
          <Table stickyHeader verticalSpacing={6} highlightOnHover data-test-id="tags-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('tagsManager.name')}</Table.Th>
                <Table.Th w={90}>{t('tagsManager.usage')}</Table.Th>
                <Table.Th w={210} />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr
                  key={row.id ?? 'new'}
                  className={row.disabled ? classes.disabled : row.confirmingDelete ? classes.deleting : undefined}
                  data-test-id="tags-table-row"
                  data-name={row.id === null ? '' : row.name}
                  data-mode={row.editing ? 'edit' : row.confirmingDelete ? 'delete' : row.disabled ? 'disabled' : 'idle'}
                >
                  <Table.Td>{nameCell(row)}</Table.Td>
                  <Table.Td>
                    <Text size="sm" c="dimmed" data-test-id="tags-table-usage">
                      {row.usage === null ? '' : abbreviateNumber(row.usage)}
                    </Text>
                  </Table.Td>
                  <Table.Td>{actionsCell(row)}</Table.Td>
                </Table.Tr>
              ))}
              {rows.length === 0 ? (
                <Table.Tr>
                  <Table.Td colSpan={3}>
                    <Text c="dimmed" ta="center" size="sm" py="md">
                      {t('tagsManager.noMatch')}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ) : null}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Stack>
    );
  };

  return (
    <StackedModal
      opened={opened}
      onClose={close}
      closeOnEscape={state.mode.kind === 'idle'}
      title={t('tagsManager.title')}
      centered
      {...dialogSizeProps('tagsManager')}
      attributes={{ content: { 'data-test-id': 'tags-manager' } }}
    >
      <div onKeyDown={onKeyDown} className={classes.body}>
        {body()}
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={close} disabled={saving} data-test-id="tags-manager-done">
            {t('tagsManager.done')}
          </Button>
        </Group>
      </div>
    </StackedModal>
  );
}
