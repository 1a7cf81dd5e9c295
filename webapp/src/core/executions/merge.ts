import { showsCurrent, showsPast } from './filter';
import type { ExecutionStatusFilter, ExecutionSummary } from './types';

/** Orders decimal execution ids numerically without losing precision on large ids. */
export function compareIds(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

const newestFirst = (a: ExecutionSummary, b: ExecutionSummary) => compareIds(b.id, a.id);

/**
 * Merges an auto-refresh (the newest `limit` past executions) into the loaded list. Within the
 * refreshed range the refreshed entries win: new ones appear, changed ones update, missing ones
 * (deleted) go. Older loaded pages are kept. A refresh shorter than the limit is the whole list.
 */
export function mergeRefreshed(loaded: readonly ExecutionSummary[], refreshed: readonly ExecutionSummary[], limit: number): ExecutionSummary[] {
  const fresh = [...refreshed].sort(newestFirst);
  const oldest = fresh[fresh.length - 1];
  if (fresh.length < limit || oldest === undefined) return fresh;
  const older = loaded.filter((execution) => compareIds(execution.id, oldest.id) < 0);
  return [...fresh, ...older.sort(newestFirst)];
}

/** Appends a next page, skipping ids already listed (a refresh may have brought them). */
export function appendPage(loaded: readonly ExecutionSummary[], page: readonly ExecutionSummary[]): ExecutionSummary[] {
  const known = new Set(loaded.map((execution) => execution.id));
  return [...loaded, ...page.filter((execution) => !known.has(execution.id))];
}

/**
 * The rows of the list: current executions first (for ALL and running), then past ones (for
 * all but running). A past entry of an execution that is also current is left out.
 */
export function combineExecutions(current: readonly ExecutionSummary[], past: readonly ExecutionSummary[], status: ExecutionStatusFilter): ExecutionSummary[] {
  const rows = showsCurrent(status) ? [...current].sort(newestFirst) : [];
  if (!showsPast(status)) return rows;
  const currentIds = new Set(rows.map((execution) => execution.id));
  return [...rows, ...past.filter((execution) => !currentIds.has(execution.id))];
}

/** What the list counts: shown current executions plus every past one the server counts. */
export function totalCount(currentShown: number, pastCount: number, status: ExecutionStatusFilter): number {
  return (showsCurrent(status) ? currentShown : 0) + (showsPast(status) ? pastCount : 0);
}

/** Whether 'Load more' has anything left to fetch. */
export function hasMorePast(loaded: number, count: number, estimated: boolean, status: ExecutionStatusFilter): boolean {
  return showsPast(status) && (estimated || count > loaded);
}
