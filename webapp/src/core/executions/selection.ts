import type { DeleteExecutionsRequest, ExecutionSummary, PastExecutionsQuery } from './types';

/**
 * Executions chosen for deletion: every past execution matching the filters (all), or the
 * listed ids.
 */
export interface ExecutionSelection {
  all: boolean;
  ids: ReadonlySet<string>;
}

export const EMPTY_SELECTION: ExecutionSelection = { all: false, ids: new Set() };

export function isSelected(selection: ExecutionSelection, id: string): boolean {
  return selection.all || selection.ids.has(id);
}

/** The header checkbox: all selected, some, or none. */
export function selectionState(selection: ExecutionSelection): 'all' | 'some' | 'none' {
  if (selection.all) return 'all';
  return selection.ids.size > 0 ? 'some' : 'none';
}

/** Clicking the header checkbox: clears a full selection, otherwise selects everything. */
export function toggleAll(selection: ExecutionSelection): ExecutionSelection {
  return selection.all ? EMPTY_SELECTION : { all: true, ids: new Set() };
}

/**
 * Clicking a row checkbox. Under 'all' the row is taken out and the rest of the listed
 * selectable rows stay chosen by id.
 */
export function toggleRow(selection: ExecutionSelection, id: string, selectableIds: readonly string[]): ExecutionSelection {
  if (selection.all) return { all: false, ids: new Set(selectableIds.filter((other) => other !== id)) };
  const ids = new Set(selection.ids);
  if (ids.has(id)) ids.delete(id);
  else ids.add(id);
  return { all: false, ids };
}

/** Drops chosen ids that are no longer listed (deleted or refreshed away). */
export function pruneSelection(selection: ExecutionSelection, listedIds: readonly string[]): ExecutionSelection {
  if (selection.all || selection.ids.size === 0) return selection;
  const listed = new Set(listedIds);
  const ids = [...selection.ids].filter((id) => listed.has(id));
  return ids.length === selection.ids.size ? selection : { all: false, ids: new Set(ids) };
}

/** How many executions a deletion would remove; 'all' counts every past one the server counts. */
export function selectedCount(selection: ExecutionSelection, pastCount: number): number {
  return selection.all ? pastCount : selection.ids.size;
}

/**
 * The POST /executions/delete body. Selecting all deletes, as n8n does, every execution started
 * up to the newest listed past one that matches the filters (`past` is newest first); the start
 * time is sent as the server wrote it. Null when nothing would be deleted.
 */
export function deleteRequest(selection: ExecutionSelection, filters: PastExecutionsQuery, past: readonly ExecutionSummary[]): DeleteExecutionsRequest | null {
  if (selection.all) {
    const newest = past[0];
    return newest ? { deleteBefore: newest.startedAt, filters } : null;
  }
  if (selection.ids.size === 0) return null;
  return { ids: [...selection.ids], filters };
}
