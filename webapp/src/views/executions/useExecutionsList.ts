import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import useSWRInfinite from 'swr/infinite';
import { getCurrentExecutions, getPastExecutions } from '@/api/executions';
import { showErrorToast } from '@/components/errorToast';
import { useSubmit } from '@/components/forms/useSubmit';
import { currentExecutionsQuery, pastExecutionsQuery, showsCurrent, showsPast } from '@/core/executions/filter';
import { combineExecutions, combinePages, hasMorePast, totalCount, type ExecutionsListPage } from '@/core/executions/merge';
import {
  AUTO_REFRESH_INTERVAL_MS,
  AUTO_REFRESH_LIMIT,
  DEFAULT_EXECUTIONS_FILTER,
  EXECUTIONS_PAGE_SIZE,
  type ExecutionSummary,
  type ExecutionsListFilter,
  type ExecutionsPage,
} from '@/core/executions/types';

export interface ExecutionsList {
  filter: ExecutionsListFilter;
  setFilter: (filter: ExecutionsListFilter) => void;
  /** Current executions first, then the loaded past ones. */
  rows: ExecutionSummary[];
  /** The loaded past executions, newest first. */
  past: ExecutionSummary[];
  pastCount: number;
  /** Everything the filter matches: shown current executions plus the past count. */
  total: number;
  estimated: boolean;
  loading: boolean;
  loadingMore: boolean;
  hasMore: boolean;
  loadMore: () => Promise<void>;
  /** Reloads the first page and the current executions. */
  refresh: () => Promise<void>;
  autoRefresh: boolean;
  setAutoRefresh: (on: boolean) => void;
}

/**
 * A page of the list: the head (`cursor` undefined) or the past executions older than `cursor`.
 * `list` numbers the lists the dialog showed: each filter choice starts a new one.
 */
type PageKey = readonly ['executions-list', list: number, workflowId: string, status: ExecutionsListFilter['status'], cursor?: string];

const NO_PAST: ExecutionsPage = { results: [], count: 0, estimated: false };
const isPage = (page: ExecutionsListPage | undefined): page is ExecutionsListPage => page !== undefined;

/**
 * The executions list of the dialog on SWR's infinite loading: the head is the current executions
 * plus the first 10 past ones; 'load more' adds a page of 10 older than the last listed; the auto
 * refresh (every 4 s) revalidates only the head, which then asks for the newest 30 and is merged
 * over the older pages (core/executions/merge). Each filter choice starts a new list (a new key),
 * so answers for a previous filter never reach the rows.
 */
export function useExecutionsList(): ExecutionsList {
  const { t } = useTranslation();
  const [filter, setFilterState] = useState<ExecutionsListFilter>(DEFAULT_EXECUTIONS_FILTER);
  const [list, setList] = useState(0);
  const [autoRefresh, setAutoRefresh] = useState(true);
  // The cursors of the older pages, set when 'load more' asks for one; the head's key never
  // depends on them, so an auto refresh of the head leaves the loaded pages alone.
  const cursors = useRef<string[]>([]);
  // The last head of each list: its next fetch is an auto refresh (30, merged) instead of a first
  // load (10), unless the list is being reloaded.
  const heads = useRef(new Map<number, ExecutionsListPage>());
  const reloads = useRef(new Set<number>());
  const answers = useRef(0);

  const getKey = (index: number): PageKey | null => {
    if (index === 0) return ['executions-list', list, filter.workflowId, filter.status];
    const cursor = cursors.current[index - 1];
    return cursor === undefined ? null : ['executions-list', list, filter.workflowId, filter.status, cursor];
  };

  // Fetching never fails as far as SWR knows (an error would pause its refresh): a failed page is
  // reported and answers nothing (SWR fetches it again when asked), a failed head keeps the last.
  const fetchPage = async ([, listId, workflowId, status, cursor]: PageKey): Promise<ExecutionsListPage | undefined> => {
    const target: ExecutionsListFilter = { workflowId, status };
    if (cursor !== undefined) {
      try {
        const page = await getPastExecutions(pastExecutionsQuery(target), EXECUTIONS_PAGE_SIZE, { lastId: cursor });
        return { current: [], past: page.results, limit: EXECUTIONS_PAGE_SIZE, count: page.count, estimated: page.estimated, answer: ++answers.current };
      } catch (error) {
        showErrorToast(t('executionsList.showError.loadMore.title'), error);
        cursors.current = cursors.current.filter((known) => known !== cursor);
        return undefined;
      }
    }
    const previous = heads.current.get(listId);
    const reloading = reloads.current.delete(listId);
    const limit = previous && !reloading ? AUTO_REFRESH_LIMIT : EXECUTIONS_PAGE_SIZE;
    try {
      const [current, page] = await Promise.all([
        showsCurrent(status) ? getCurrentExecutions(currentExecutionsQuery(target)) : Promise.resolve([]),
        showsPast(status) ? getPastExecutions(pastExecutionsQuery(target), limit) : Promise.resolve(NO_PAST),
      ]);
      const head = { current, past: page.results, limit, count: page.count, estimated: page.estimated, answer: ++answers.current };
      heads.current.set(listId, head);
      return head;
    } catch (error) {
      // An auto refresh fails quietly; the next one tries again.
      if (!previous || reloading) showErrorToast(t('executionsList.showError.refreshData.title'), error);
      return previous;
    }
  };

  const { data, isLoading, mutate, setSize } = useSWRInfinite(getKey, fetchPage, {
    refreshInterval: autoRefresh ? AUTO_REFRESH_INTERVAL_MS : 0,
    refreshWhenHidden: true,
    revalidateOnFocus: false,
    revalidateOnReconnect: false,
    shouldRetryOnError: false,
  });

  const listed = combinePages((data ?? []).filter(isPage));

  const setFilter = (next: ExecutionsListFilter) => {
    cursors.current = [];
    setFilterState(next);
    setList((current) => current + 1);
  };

  const reload = useSubmit(
    async () => {
      // Back to the head alone, fetched as a first load.
      cursors.current = [];
      reloads.current.add(list);
      await mutate();
    },
    { onError: () => undefined, idleAfterSuccess: true },
  );

  const more = useSubmit(
    async () => {
      const lastId = listed.past[listed.past.length - 1]?.id;
      if (!showsPast(filter.status) || lastId === undefined) return;
      cursors.current = [...cursors.current, lastId];
      await setSize(cursors.current.length + 1);
    },
    { onError: () => undefined, idleAfterSuccess: true },
  );

  return {
    filter,
    setFilter,
    rows: combineExecutions(listed.current, listed.past, filter.status),
    past: listed.past,
    pastCount: listed.count,
    total: totalCount(listed.current.length, listed.count, filter.status),
    estimated: listed.estimated,
    loading: isLoading || reload.busy,
    loadingMore: more.busy,
    hasMore: hasMorePast(listed.past.length, listed.count, listed.estimated, filter.status),
    loadMore: more.submit,
    refresh: reload.submit,
    autoRefresh,
    setAutoRefresh,
  };
}
