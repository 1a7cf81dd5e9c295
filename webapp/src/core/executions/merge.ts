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

/**
 * One answer the executions list keeps: the head (the current executions and the newest past
 * ones) or an older page of past executions fetched by 'load more'.
 */
export interface ExecutionsListPage {
  /** The current executions; only the head carries them. */
  current: ExecutionSummary[];
  /** Past executions, newest first. */
  past: ExecutionSummary[];
  /** How many past executions were asked for: a shorter answer is all there is. */
  limit: number;
  /** What the server counts for the filter, and whether that count is estimated. */
  count: number;
  estimated: boolean;
  /** Increases with every answer, so the newest count wins. */
  answer: number;
}

/** What the list shows of its pages. */
export interface ListedExecutions {
  current: ExecutionSummary[];
  past: ExecutionSummary[];
  count: number;
  estimated: boolean;
}

const NOTHING_LISTED: ListedExecutions = { current: [], past: [], count: 0, estimated: false };

/**
 * Combines the head with the older pages: the head is the newest range (an auto refresh merges
 * by `mergeRefreshed`), the older pages follow without repeats, and the count is the newest one.
 */
export function combinePages(pages: readonly ExecutionsListPage[]): ListedExecutions {
  const [head, ...older] = pages;
  if (head === undefined) return NOTHING_LISTED;
  const olderPast = older.reduce<ExecutionSummary[]>((loaded, page) => appendPage(loaded, page.past), []);
  const latest = pages.reduce((newest, page) => (page.answer > newest.answer ? page : newest), head);
  return { current: head.current, past: mergeRefreshed(olderPast, head.past, head.limit), count: latest.count, estimated: latest.estimated };
}
