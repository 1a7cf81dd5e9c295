import type { PushMessage, RunResult, TaskData } from '@/core/push/messages';

/** Spec 001 §4 execution UI states. */
export type ExecutionStatus = 'idle' | 'running' | 'waitingForWebhook' | 'stopping';

export interface ExecutionState {
  status: ExecutionStatus;
  executionId: string | null;
  /** Nodes running now (spinner). */
  executing: readonly string[];
  /** Run data of the last or current run, by node name. */
  runData: Readonly<Record<string, readonly TaskData[]>> | null;
  /** The finished run, once executionFinished arrived. */
  result: RunResult | null;
}

export const IDLE_EXECUTION: ExecutionState = { status: 'idle', executionId: null, executing: [], runData: null, result: null };

/** What the canvas shows on a node after a run. */
export interface NodeRunStatus {
  executing: boolean;
  /** The node ran and none of its runs failed. */
  success: boolean;
  error: string | null;
  /** Items of the last run, summed over outputs. */
  itemCount: number;
  /** Items per output of the last run. */
  outputItems: readonly number[];
  waiting: boolean;
}

/** Starts a run the server accepted; `kept` is the earlier data a partial run reuses. */
export function runStarted(
  state: ExecutionState,
  executionId: string | null,
  waitingForWebhook: boolean,
  kept: Readonly<Record<string, readonly TaskData[]>> = {},
): ExecutionState {
  return { ...state, status: waitingForWebhook ? 'waitingForWebhook' : 'running', executionId, executing: [], runData: kept, result: null };
}

/**
 * Whether a node message names another execution than the one followed: such messages are held
 * back and offered again, since the run's id may not be known yet when they arrive.
 */
export function isForOtherExecution(state: ExecutionState, message: PushMessage): boolean {
  if (message.type !== 'nodeExecuteBefore' && message.type !== 'nodeExecuteAfter') return false;
  return state.status !== 'idle' && state.executionId !== null && state.executionId !== message.data.executionId;
}

/** Push messages for another execution are offered again this many times, this far apart (ms). */
export const PUSH_RETRIES = 5;
export const PUSH_RETRY_DELAY = 20;

/**
 * Applies a push message. Messages for another execution than the one this editor follows are
 * ignored, except executionStarted, which adopts the id while waiting for a webhook.
 */
export function applyPushMessage(state: ExecutionState, message: PushMessage): ExecutionState {
  const follows = (id: string) => state.executionId === null || state.executionId === id;
  switch (message.type) {
    case 'executionStarted':
      if (state.status === 'idle') return state;
      if (state.status === 'waitingForWebhook' || state.executionId === null) {
        return { ...state, status: 'running', executionId: message.data.executionId };
      }
      return state;
    case 'nodeExecuteBefore':
      if (state.status === 'idle' || !follows(message.data.executionId)) return state;
      return { ...state, executionId: message.data.executionId, executing: [...state.executing.filter((n) => n !== message.data.nodeName), message.data.nodeName] };
    case 'nodeExecuteAfter': {
      if (state.status === 'idle' || !follows(message.data.executionId)) return state;
      const runs = state.runData?.[message.data.nodeName] ?? [];
      return {
        ...state,
        executing: state.executing.filter((n) => n !== message.data.nodeName),
        runData: { ...state.runData, [message.data.nodeName]: [...runs, message.data.data] },
      };
    }
    case 'executionFinished':
      if (state.status === 'idle' || !follows(message.data.executionId)) return state;
      return {
        status: 'idle',
        executionId: message.data.executionId,
        executing: [],
        runData: message.data.data.data?.resultData?.runData ?? state.runData,
        result: message.data.data,
      };
    case 'testWebhookReceived':
      return state.status === 'waitingForWebhook' ? { ...state, status: 'running', executionId: message.data.executionId } : state;
    case 'testWebhookDeleted':
      return state.status === 'waitingForWebhook' ? IDLE_EXECUTION : state;
    default:
      return state;
  }
}

function itemsOf(run: TaskData | undefined): number[] {
  return (run?.data?.main ?? []).map((items) => items?.length ?? 0);
}

/** The canvas status of one node. */
export function nodeRunStatus(state: ExecutionState, name: string): NodeRunStatus {
  const runs = state.runData?.[name] ?? [];
  const last = runs[runs.length - 1];
  const failed = runs.find((run) => run.error);
  const outputItems = itemsOf(last);
  return {
    executing: state.executing.includes(name),
    success: runs.length > 0 && !failed,
    error: failed?.error?.message ?? null,
    itemCount: outputItems.reduce((sum, n) => sum + n, 0),
    outputItems,
    waiting: state.result?.waitTill != null && state.result.data?.resultData?.lastNodeExecuted === name,
  };
}

/** Outcome of a finished run for the toast (spec 001 §4 and §8). */
export type RunOutcome =
  | { kind: 'success' }
  | { kind: 'waiting' }
  | { kind: 'nodeError'; node: string; message: string }
  | { kind: 'failed'; message: string | null };

export function runOutcome(result: RunResult): RunOutcome {
  if (result.waitTill) return { kind: 'waiting' };
  const resultData = result.data?.resultData;
  const lastNode = resultData?.lastNodeExecuted;
  const error = resultData?.error;
  if (error && lastNode && resultData.runData?.[lastNode]?.some((run) => run.error)) {
    return { kind: 'nodeError', node: lastNode, message: error.message };
  }
  if (error) return { kind: 'failed', message: error.message };
  if (result.finished === false) return { kind: 'failed', message: null };
  return { kind: 'success' };
}
