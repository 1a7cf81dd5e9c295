import { ALL_WORKFLOWS, type CurrentExecutionsQuery, type ExecutionStatusFilter, type ExecutionsListFilter, type PastExecutionsQuery } from './types';

/** Whether the status filter shows current (running) executions. */
export function showsCurrent(status: ExecutionStatusFilter): boolean {
  return status === 'ALL' || status === 'running';
}

/** Whether the status filter shows past executions from GET /executions. */
export function showsPast(status: ExecutionStatusFilter): boolean {
  return status !== 'running';
}

/**
 * The query for past executions, as n8n builds it: the workflow unless all, waitTill for
 * waiting, finished true for success and false for error. Running needs no past query.
 */
export function pastExecutionsQuery(filter: ExecutionsListFilter): PastExecutionsQuery {
  const query: PastExecutionsQuery = {};
  if (filter.workflowId !== ALL_WORKFLOWS) query.workflowId = filter.workflowId;
  if (filter.status === 'waiting') query.waitTill = true;
  else if (filter.status === 'error' || filter.status === 'success') query.finished = filter.status === 'success';
  return query;
}

/** The query for current executions: only the workflow. */
export function currentExecutionsQuery(filter: ExecutionsListFilter): CurrentExecutionsQuery {
  return filter.workflowId !== ALL_WORKFLOWS ? { workflowId: filter.workflowId } : {};
}
