/** An execution as the executions list shows it (n8n's IExecutionsSummary). */
export interface ExecutionSummary {
  id: string;
  finished: boolean;
  mode: string;
  /** The server's status (new, queued, running, waiting, success, error, canceled, crashed). */
  status?: string;
  retryOf?: string | null;
  retrySuccessId?: string | null;
  waitTill?: string | null;
  startedAt: string;
  /**
   * Absent (undefined) on a current execution from GET /executions-current; null on a past
   * execution that never recorded its end (it may have crashed); otherwise the time it ended.
   */
  stoppedAt?: string | null;
  workflowId?: string | null;
  workflowName?: string;
}

/** One page of GET /executions. An estimated count comes from table statistics. */
export interface ExecutionsPage {
  results: ExecutionSummary[];
  count: number;
  estimated: boolean;
}

/** The status select of the executions list (spec 001 §9). */
export type ExecutionStatusFilter = 'ALL' | 'error' | 'running' | 'success' | 'waiting';

export const EXECUTION_STATUS_FILTERS: readonly ExecutionStatusFilter[] = ['ALL', 'error', 'running', 'success', 'waiting'];

/** Every workflow, in the workflow select. */
export const ALL_WORKFLOWS = 'ALL';

/** The filters of the executions list; workflowId is a workflow id or ALL_WORKFLOWS. */
export interface ExecutionsListFilter {
  workflowId: string;
  status: ExecutionStatusFilter;
}

export const DEFAULT_EXECUTIONS_FILTER: ExecutionsListFilter = { workflowId: ALL_WORKFLOWS, status: 'ALL' };

/** The `filter` query of GET /executions and the `filters` of POST /executions/delete. */
export interface PastExecutionsQuery {
  workflowId?: string;
  finished?: boolean;
  waitTill?: boolean;
}

/** The `filter` query of GET /executions-current. */
export interface CurrentExecutionsQuery {
  workflowId?: string;
}

/** The body of POST /executions/delete: chosen ids, or everything up to a start time. */
export type DeleteExecutionsRequest =
  | { ids: string[]; filters: PastExecutionsQuery }
  | { deleteBefore: string; filters: PastExecutionsQuery };

/** Past executions per page of the list (spec 001 §9). */
export const EXECUTIONS_PAGE_SIZE = 10;
/** Auto refresh period and how many of the newest past executions each refresh fetches. */
export const AUTO_REFRESH_INTERVAL_MS = 4000;
export const AUTO_REFRESH_LIMIT = 30;
