import type { RunResult } from '@/core/push/messages';
import type {
  CurrentExecutionsQuery,
  DeleteExecutionsRequest,
  ExecutionSummary,
  ExecutionsPage,
  PastExecutionsQuery,
} from '@/core/executions/types';
import type { Connections, WorkflowNode, WorkflowSettings } from '@/core/workflow/types';
import { restApi } from './fetcher';

/** A past execution as GET /executions/:id answers it. */
export interface StoredExecution extends Partial<RunResult> {
  id: string;
  finished: boolean;
  mode: string;
  startedAt: string;
  /** Empty (the server sends null) while the execution runs. */
  stoppedAt?: string;
  status?: string;
  waitTill?: string | null;
  workflowId?: string | null;
  workflowData: { id?: string; name: string; nodes: WorkflowNode[]; connections: Connections; settings?: WorkflowSettings };
}

export function getExecution(id: string): Promise<StoredExecution> {
  return restApi.get<StoredExecution>(`/executions/${encodeURIComponent(id)}`);
}

/** Paging of GET /executions: ids below lastId (older) or above firstId (newer). */
export interface ExecutionsCursor {
  lastId?: string;
  firstId?: string;
}

/** Past executions, newest first, with the total count of the filter. */
export function getPastExecutions(filter: PastExecutionsQuery, limit: number, cursor: ExecutionsCursor = {}): Promise<ExecutionsPage> {
  return restApi.get<ExecutionsPage>('/executions', { filter: { ...filter }, limit, lastId: cursor.lastId, firstId: cursor.firstId });
}

/**
 * The executions running now. They come without stoppedAt, which is what marks a current
 * execution in the list (a past one has a time or null).
 */
export async function getCurrentExecutions(filter: CurrentExecutionsQuery): Promise<ExecutionSummary[]> {
  const list = await restApi.get<ExecutionSummary[]>('/executions-current', { filter: { ...filter } });
  return list.map((execution) => ({ ...execution, stoppedAt: undefined }));
}

export function stopExecution(executionId: string): Promise<unknown> {
  return restApi.request('POST', `/executions-current/${encodeURIComponent(executionId)}/stop`);
}

/**
 * Runs a failed execution again (loadWorkflow: with the workflow as saved now, otherwise the one
 * it ran with) and answers whether the retry succeeded.
 */
export function retryExecution(executionId: string, loadWorkflow: boolean): Promise<boolean> {
  return restApi.request<boolean>('POST', `/executions/${encodeURIComponent(executionId)}/retry`, { loadWorkflow });
}

export function deleteExecutions(body: DeleteExecutionsRequest): Promise<unknown> {
  return restApi.request('POST', '/executions/delete', { ...body });
}
