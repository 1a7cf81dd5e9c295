import type { ExecutionSummary } from './types';

/** The far-future waitTill of an execution that waits for a webhook call without a time limit. */
export const WAIT_TIME_UNLIMITED = '3000-01-01T00:00:00.000Z';

/** How the executions list shows an execution (spec 001 §4). */
export type ExecutionDisplayState = 'waiting' | 'running' | 'success' | 'error' | 'unknown';

type StateFields = Pick<ExecutionSummary, 'finished' | 'waitTill' | 'stoppedAt'>;

/**
 * Waiting when it has a waitTill; running when it has no stoppedAt at all (a current execution);
 * success when finished; error when it stopped unfinished; unknown when stoppedAt is null (it
 * never recorded its end: probably still running, or crashed).
 */
export function executionDisplayState(execution: StateFields): ExecutionDisplayState {
  if (execution.waitTill) return 'waiting';
  if (execution.stoppedAt === undefined) return 'running';
  if (execution.finished) return 'success';
  if (execution.stoppedAt !== null) return 'error';
  return 'unknown';
}

/** The state of an execution opened on its own page, where no stoppedAt means it still runs. */
export function openedExecutionState(execution: StateFields): Exclude<ExecutionDisplayState, 'unknown'> {
  if (execution.waitTill) return 'waiting';
  if (!execution.stoppedAt) return 'running';
  return execution.finished ? 'success' : 'error';
}

export function isWaitingIndefinitely(waitTill: string | null | undefined): boolean {
  if (!waitTill) return false;
  const time = Date.parse(waitTill);
  return !Number.isNaN(time) && time >= Date.parse(WAIT_TIME_UNLIMITED);
}

const present = (id: string | null | undefined): id is string => id !== undefined && id !== null && id !== '';

/**
 * Retry is offered for a stopped, unfinished execution that is no retry itself, has no
 * successful retry and is not waiting.
 */
export function canRetry(execution: ExecutionSummary): boolean {
  return execution.stoppedAt !== undefined && !execution.finished && !present(execution.retryOf) && !present(execution.retrySuccessId) && !execution.waitTill;
}

/** Stop is offered for running (current) or waiting executions. */
export function canStop(execution: ExecutionSummary): boolean {
  return execution.stoppedAt === undefined || Boolean(execution.waitTill);
}

/** Past executions can be selected for deletion and opened; current ones cannot. */
export function isPast(execution: ExecutionSummary): boolean {
  return execution.stoppedAt !== undefined && execution.id !== '';
}

/** Why an execution has its state, for the status tooltip. */
export type StatusExplanation =
  | { kind: 'waitingIndefinitely' }
  | { kind: 'waitingTill'; waitTill: string }
  | { kind: 'running' }
  | { kind: 'retrySucceeded'; retryOf: string }
  | { kind: 'succeeded' }
  | { kind: 'retryFailed'; retryOf: string }
  | { kind: 'failedRetrySucceeded'; retrySuccessId: string }
  | { kind: 'probablyStillRunning' }
  | { kind: 'failed' };

export function explainStatus(execution: ExecutionSummary): StatusExplanation {
  const { waitTill, retryOf, retrySuccessId } = execution;
  if (waitTill) return isWaitingIndefinitely(waitTill) ? { kind: 'waitingIndefinitely' } : { kind: 'waitingTill', waitTill };
  if (execution.stoppedAt === undefined) return { kind: 'running' };
  if (execution.finished) return present(retryOf) ? { kind: 'retrySucceeded', retryOf } : { kind: 'succeeded' };
  if (present(retryOf)) return { kind: 'retryFailed', retryOf };
  if (present(retrySuccessId)) return { kind: 'failedRetrySucceeded', retrySuccessId };
  if (execution.stoppedAt === null) return { kind: 'probablyStillRunning' };
  return { kind: 'failed' };
}
