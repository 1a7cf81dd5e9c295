import type { Role } from '@/core/user';

/** Longest tag name (spec 002 §9). */
export const TAG_NAME_MAX_LENGTH = 24;
/** Focus delays of the tags table (spec 002 §9): the manager's first input, a row's input. */
export const TAG_FOCUS_DELAY_OPEN_MS = 350;
export const TAG_FOCUS_DELAY_ROW_MS = 100;

/** A tag as the manager lists it. */
export interface TagWithUsage {
  id: string;
  name: string;
  usageCount?: number;
}

/**
 * The table's mode (spec 002 §4 "Tags table"): nothing going on, the create row, one row in
 * update mode or one row asking to confirm its deletion. `saving` is set while the server is asked.
 */
export type TagsTableMode =
  | { kind: 'idle' }
  | { kind: 'create'; name: string; saving: boolean }
  | { kind: 'update'; id: string; name: string; saving: boolean }
  | { kind: 'delete'; id: string; saving: boolean };

export interface TagsTableState {
  search: string;
  mode: TagsTableMode;
}

export const initialTagsTable: TagsTableState = { search: '', mode: { kind: 'idle' } };

/** A row as drawn: the create row has no id. */
export interface TagRow {
  id: string | null;
  name: string;
  usage: number | null;
  /** The row edits its name (create or update). */
  editing: boolean;
  /** The row asks to confirm deletion. */
  confirmingDelete: boolean;
  /** Another row is being edited or deleted: this one takes no action. */
  disabled: boolean;
  canDelete: boolean;
}

/** Deleting tags is for the owner and the default user (spec 002 §6). */
export function canDeleteTags(role: Role | null): boolean {
  return role === 'owner' || role === 'default';
}

/**
 * The rows: the create row first when creating, then the tags whose name holds the search text
 * (any case), by name. While a row is edited or confirms deletion, every other row is disabled.
 */
export function tagRows(tags: readonly TagWithUsage[], state: TagsTableState, canDelete: boolean): TagRow[] {
  const { mode } = state;
  const needle = state.search.trim().toLowerCase();
  const busy = mode.kind !== 'idle';
  const rows: TagRow[] = [];
  if (mode.kind === 'create') {
    rows.push({ id: null, name: mode.name, usage: null, editing: true, confirmingDelete: false, disabled: false, canDelete: false });
  }
  const sorted = [...tags].filter((tag) => needle === '' || tag.name.toLowerCase().includes(needle)).sort((a, b) => a.name.localeCompare(b.name));
  for (const tag of sorted) {
    const updating = mode.kind === 'update' && mode.id === tag.id;
    const deleting = mode.kind === 'delete' && mode.id === tag.id;
    rows.push({
      id: tag.id,
      name: updating ? mode.name : tag.name,
      usage: tag.usageCount ?? 0,
      editing: updating,
      confirmingDelete: deleting,
      disabled: busy && !updating && !deleting,
      canDelete,
    });
  }
  return rows;
}

/** The manager shows its empty state ('Create a tag') when there are no tags and none is being created. */
export function showsEmptyState(tags: readonly TagWithUsage[], state: TagsTableState): boolean {
  return tags.length === 0 && state.mode.kind !== 'create';
}

export type TagsTableEvent =
  | { type: 'search'; text: string }
  | { type: 'startCreate' }
  | { type: 'startUpdate'; tag: TagWithUsage }
  | { type: 'startDelete'; id: string }
  | { type: 'type'; name: string }
  | { type: 'cancel' }
  | { type: 'saving' }
  | { type: 'saved' }
  | { type: 'failed' };

/**
 * The table's transitions. A new create, update or delete is refused while something is being
 * saved; starting one while another is open replaces it; a failure keeps the row open so the
 * user can correct it; cancel (Esc) and saved return to idle.
 */
export function tagsTableReducer(state: TagsTableState, event: TagsTableEvent): TagsTableState {
  const { mode } = state;
  const saving = mode.kind !== 'idle' && mode.saving;
  switch (event.type) {
    case 'search':
      return { ...state, search: event.text };
    case 'startCreate':
      return saving ? state : { ...state, mode: { kind: 'create', name: '', saving: false } };
    case 'startUpdate':
      return saving ? state : { ...state, mode: { kind: 'update', id: event.tag.id, name: event.tag.name, saving: false } };
    case 'startDelete':
      return saving ? state : { ...state, mode: { kind: 'delete', id: event.id, saving: false } };
    case 'type':
      if (saving || (mode.kind !== 'create' && mode.kind !== 'update')) return state;
      return { ...state, mode: { ...mode, name: event.name.slice(0, TAG_NAME_MAX_LENGTH) } };
    case 'cancel':
      return saving ? state : { ...state, mode: { kind: 'idle' } };
    case 'saving':
      return mode.kind === 'idle' ? state : { ...state, mode: { ...mode, saving: true } };
    case 'saved':
      return { ...state, mode: { kind: 'idle' } };
    case 'failed':
      return mode.kind === 'idle' ? state : { ...state, mode: { ...mode, saving: false } };
  }
}

/** What applying the open row asks of the server. */
export type TagsTableAction =
  | { kind: 'create'; name: string }
  | { kind: 'rename'; id: string; name: string }
  | { kind: 'delete'; id: string }
  /** Nothing to send: the rename keeps the name (a no-op success, spec 002 §5). */
  | { kind: 'unchanged' }
  /** The name is empty: 'Tag name cannot be empty'. */
  | { kind: 'emptyName' };

/**
 * What Enter (or the row's button) applies, or null when nothing may be applied: no row is open,
 * or a save is under way (nothing applies while saving).
 */
export function applyAction(tags: readonly TagWithUsage[], state: TagsTableState): TagsTableAction | null {
  const { mode } = state;
  if (mode.kind === 'idle' || mode.saving) return null;
  if (mode.kind === 'delete') return { kind: 'delete', id: mode.id };
  const name = mode.name.trim();
  if (name === '') return { kind: 'emptyName' };
  if (mode.kind === 'create') return { kind: 'create', name };
  const current = tags.find((tag) => tag.id === mode.id);
  if (current && current.name === name) return { kind: 'unchanged' };
  return { kind: 'rename', id: mode.id, name };
}
