import type { ExecutionSummary } from './types';

/** A past execution that failed; fields override. */
export function pastExecution(id: string, fields: Partial<ExecutionSummary> = {}): ExecutionSummary {
  return {
    id,
    finished: false,
    mode: 'trigger',
    retryOf: null,
    retrySuccessId: null,
    waitTill: null,
    startedAt: `2024-05-01T10:00:${id.padStart(2, '0').slice(-2)}.123456Z`,
    stoppedAt: '2024-05-01T10:01:00Z',
    workflowId: 'wf1',
    workflowName: 'My workflow',
    ...fields,
  };
}

/** A current execution as the list holds it: no stoppedAt. */
export function currentExecution(id: string, fields: Partial<ExecutionSummary> = {}): ExecutionSummary {
  return { ...pastExecution(id, { mode: 'manual', ...fields }), stoppedAt: undefined };
}
