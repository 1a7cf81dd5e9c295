import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getCurrentExecutions, getPastExecutions } from '@/api/executions';
import { showErrorToast } from '@/components/errorToast';
import { currentExecutionsQuery, pastExecutionsQuery, showsCurrent, showsPast } from '@/core/executions/filter';
import { appendPage, combineExecutions, hasMorePast, mergeRefreshed, totalCount } from '@/core/executions/merge';
import {
  AUTO_REFRESH_INTERVAL_MS,
  AUTO_REFRESH_LIMIT,
  DEFAULT_EXECUTIONS_FILTER,
  EXECUTIONS_PAGE_SIZE,
  type ExecutionSummary,
  type ExecutionsListFilter,
  type ExecutionsPage,
} from '@/core/executions/types';

interface ListData {
  current: ExecutionSummary[];
  past: ExecutionSummary[];
  /** Past executions the server counts for the filter, and whether that count is estimated. */
  count: number;
  estimated: boolean;
}

const EMPTY_PAGE: ExecutionsPage = { results: [], count: 0, estimated: false };
const EMPTY_DATA: ListData = { current: [], past: [], count: 0, estimated: false };

async function fetchList(filter: ExecutionsListFilter, limit: number): Promise<{ current: ExecutionSummary[]; page: ExecutionsPage }> {
  const [current, page] = await Promise.all([
    showsCurrent(filter.status) ? getCurrentExecutions(currentExecutionsQuery(filter)) : Promise.resolve([]),
    showsPast(filter.status) ? getPastExecutions(pastExecutionsQuery(filter), limit) : Promise.resolve(EMPTY_PAGE),
  ]);
  return { current, page };
}

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
 * The executions list of the dialog: filters, the first page of past executions plus the current
 * ones, 'load more' by lastId, and an auto refresh every 4 s that merges the newest 30 past
 * executions into what is loaded. A filter change or refresh makes answers to older requests
 * void.
 */
export function useExecutionsList(): ExecutionsList {
  const { t } = useTranslation();
  const [filter, setFilterState] = useState<ExecutionsListFilter>(DEFAULT_EXECUTIONS_FILTER);
  const [data, setData] = useState<ListData>(EMPTY_DATA);
  const [loading, setLoading] = useState(true);
  const [loadingMore, setLoadingMore] = useState(false);
  const [autoRefresh, setAutoRefresh] = useState(true);
  const filterRef = useRef(filter);
  const generation = useRef(0);

  const load = useCallback(
    async (target: ExecutionsListFilter) => {
      const run = ++generation.current;
      try {
        const { current, page } = await fetchList(target, EXECUTIONS_PAGE_SIZE);
        if (run !== generation.current) return;
        setData({ current, past: page.results, count: page.count, estimated: page.estimated });
      } catch (error) {
        if (run === generation.current) showErrorToast(t('executionsList.showError.refreshData.title'), error);
      } finally {
        if (run === generation.current) {
          setLoading(false);
          setLoadingMore(false);
        }
      }
    },
    [t],
  );

  const refresh = useCallback(async () => {
    setLoading(true);
    await load(filterRef.current);
  }, [load]);

  const setFilter = useCallback(
    (next: ExecutionsListFilter) => {
      filterRef.current = next;
      setFilterState(next);
      setData(EMPTY_DATA);
      setLoading(true);
      void load(next);
    },
    [load],
  );

  useEffect(() => {
    void load(filterRef.current);
  }, [load]);

  const loadMore = useCallback(async () => {
    const target = filterRef.current;
    if (!showsPast(target.status)) return;
    const run = generation.current;
    setLoadingMore(true);
    try {
      const lastId = data.past[data.past.length - 1]?.id;
      const page = await getPastExecutions(pastExecutionsQuery(target), EXECUTIONS_PAGE_SIZE, { lastId });
      if (run !== generation.current) return;
      setData((current) => ({ ...current, past: appendPage(current.past, page.results), count: page.count, estimated: page.estimated }));
    } catch (error) {
      if (run === generation.current) showErrorToast(t('executionsList.showError.loadMore.title'), error);
    } finally {
      if (run === generation.current) setLoadingMore(false);
    }
  }, [data.past, t]);

  useEffect(() => {
    if (!autoRefresh) return undefined;
    let busy = false;
    const timer = window.setInterval(() => {
      if (busy) return;
      busy = true;
      const run = generation.current;
      const target = filterRef.current;
      fetchList(target, AUTO_REFRESH_LIMIT)
        .then(({ current, page }) => {
          if (run !== generation.current) return;
          setData((loaded) => ({
            current,
            past: showsPast(target.status) ? mergeRefreshed(loaded.past, page.results, AUTO_REFRESH_LIMIT) : [],
            count: page.count,
            estimated: page.estimated,
          }));
        })
        // A failed refresh keeps what is shown; the next one tries again.
        .catch(() => undefined)
        .finally(() => {
          busy = false;
        });
    }, AUTO_REFRESH_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [autoRefresh]);

  return {
    filter,
    setFilter,
    rows: combineExecutions(data.current, data.past, filter.status),
    past: data.past,
    pastCount: data.count,
    total: totalCount(data.current.length, data.count, filter.status),
    estimated: data.estimated,
    loading,
    loadingMore,
    hasMore: hasMorePast(data.past.length, data.count, data.estimated, filter.status),
    loadMore,
    refresh,
    autoRefresh,
    setAutoRefresh,
  };
}
