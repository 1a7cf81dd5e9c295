import { describe, expect, it } from 'vitest';
import {
  applyAction,
  canDeleteTags,
  initialTagsTable,
  showsEmptyState,
  TAG_NAME_MAX_LENGTH,
  tagRows,
  tagsTableReducer,
  type TagsTableEvent,
  type TagsTableState,
} from './tagsTable';

const ops = { id: '2', name: 'ops', usageCount: 2 };
const billing = { id: '1', name: 'Billing', usageCount: 1 };
const tags = [ops, billing, { id: '3', name: 'unused', usageCount: 0 }];

const run = (...events: TagsTableEvent[]): TagsTableState => events.reduce(tagsTableReducer, initialTagsTable);

describe('tags table', () => {
  it('lists tags by name with their usage and filters by search text in any case', () => {
    expect(tagRows(tags, initialTagsTable, true).map((row) => [row.name, row.usage])).toEqual([
      ['Billing', 1],
      ['ops', 2],
      ['unused', 0],
    ]);
    expect(tagRows(tags, run({ type: 'search', text: 'BIL' }), true).map((row) => row.name)).toEqual(['Billing']);
    expect(tagRows(tags, run({ type: 'search', text: 'nothing' }), true)).toEqual([]);
  });

  it('puts the create row first and applies a trimmed name', () => {
    const state = run({ type: 'startCreate' }, { type: 'type', name: '  finance ' });
    const rows = tagRows(tags, state, true);
    expect(rows[0]).toMatchObject({ id: null, editing: true, usage: null });
    expect(rows.slice(1).every((row) => row.disabled)).toBe(true);
    expect(applyAction(tags, state)).toEqual({ kind: 'create', name: 'finance' });
  });

  it('edits one row at a time with the others disabled', () => {
    const state = run({ type: 'startUpdate', tag: ops }, { type: 'type', name: 'platform' });
    const rows = tagRows(tags, state, true);
    expect(rows.find((row) => row.id === '2')).toMatchObject({ name: 'platform', editing: true, disabled: false });
    expect(rows.filter((row) => row.disabled).map((row) => row.id)).toEqual(['1', '3']);
    expect(applyAction(tags, state)).toEqual({ kind: 'rename', id: '2', name: 'platform' });
    // Starting another row replaces the open one.
    const other = tagsTableReducer(state, { type: 'startUpdate', tag: billing });
    expect(tagRows(tags, other, true).filter((row) => row.editing).map((row) => row.id)).toEqual(['1']);
  });

  it('treats an unchanged rename as done and refuses an empty name', () => {
    expect(applyAction(tags, run({ type: 'startUpdate', tag: ops }))).toEqual({ kind: 'unchanged' });
    expect(applyAction(tags, run({ type: 'startUpdate', tag: ops }, { type: 'type', name: '   ' }))).toEqual({ kind: 'emptyName' });
    expect(applyAction(tags, run({ type: 'startCreate' }))).toEqual({ kind: 'emptyName' });
  });

  it('cuts names at the tag name length', () => {
    const state = run({ type: 'startCreate' }, { type: 'type', name: 'x'.repeat(40) });
    expect(state.mode).toMatchObject({ name: 'x'.repeat(TAG_NAME_MAX_LENGTH) });
  });

  it('confirms a deletion in its row', () => {
    const state = run({ type: 'startDelete', id: '3' });
    const rows = tagRows(tags, state, true);
    expect(rows.find((row) => row.id === '3')).toMatchObject({ confirmingDelete: true, disabled: false });
    expect(applyAction(tags, state)).toEqual({ kind: 'delete', id: '3' });
  });

  it('cancels with Esc and returns to idle once saved', () => {
    expect(run({ type: 'startCreate' }, { type: 'cancel' }).mode).toEqual({ kind: 'idle' });
    expect(run({ type: 'startDelete', id: '1' }, { type: 'saving' }, { type: 'saved' }).mode).toEqual({ kind: 'idle' });
    expect(applyAction(tags, initialTagsTable)).toBeNull();
  });

  it('applies nothing, cancels nothing and starts nothing while saving', () => {
    const saving = run({ type: 'startUpdate', tag: ops }, { type: 'type', name: 'platform' }, { type: 'saving' });
    expect(applyAction(tags, saving)).toBeNull();
    expect(tagsTableReducer(saving, { type: 'cancel' })).toBe(saving);
    expect(tagsTableReducer(saving, { type: 'type', name: 'other' })).toBe(saving);
    expect(tagsTableReducer(saving, { type: 'startCreate' })).toBe(saving);
    expect(tagsTableReducer(saving, { type: 'startDelete', id: '1' })).toBe(saving);
    // A failure keeps the row open to correct it.
    const failed = tagsTableReducer(saving, { type: 'failed' });
    expect(failed.mode).toEqual({ kind: 'update', id: '2', name: 'platform', saving: false });
  });

  it('shows the empty state only when there are no tags and none is being created', () => {
    expect(showsEmptyState([], initialTagsTable)).toBe(true);
    expect(showsEmptyState([], run({ type: 'startCreate' }))).toBe(false);
    expect(showsEmptyState(tags, initialTagsTable)).toBe(false);
  });

  it('lets only the owner and the default user delete', () => {
    expect(canDeleteTags('owner')).toBe(true);
    expect(canDeleteTags('default')).toBe(true);
    expect(canDeleteTags('member')).toBe(false);
    expect(canDeleteTags(null)).toBe(false);
    expect(tagRows(tags, initialTagsTable, false).every((row) => !row.canDelete)).toBe(true);
  });
});
