import { describe, expect, it } from 'vitest';
import { canRetry, canStop, executionDisplayState, explainStatus, isPast, isWaitingIndefinitely, openedExecutionState, WAIT_TIME_UNLIMITED } from './status';
import { currentExecution, pastExecution } from './testExecutions';

describe('executionDisplayState', () => {
  it.each([
    ['waiting when waitTill is set, whatever else', pastExecution('1', { waitTill: '2024-06-01T00:00:00Z', stoppedAt: null }), 'waiting'],
    ['running without any stoppedAt (a current execution)', currentExecution('2'), 'running'],
    ['success when finished', pastExecution('3', { finished: true }), 'success'],
    ['error when stopped unfinished', pastExecution('4'), 'error'],
    ['unknown when stoppedAt is null', pastExecution('5', { stoppedAt: null }), 'unknown'],
  ])('%s', (_name, execution, state) => {
    expect(executionDisplayState(execution)).toBe(state);
  });

  it('explains an unknown one as probably still running, and the other states', () => {
    expect(explainStatus(pastExecution('5', { stoppedAt: null }))).toEqual({ kind: 'probablyStillRunning' });
    expect(explainStatus(currentExecution('2'))).toEqual({ kind: 'running' });
    expect(explainStatus(pastExecution('1', { waitTill: WAIT_TIME_UNLIMITED }))).toEqual({ kind: 'waitingIndefinitely' });
    expect(explainStatus(pastExecution('1', { waitTill: '2024-06-01T00:00:00Z' }))).toEqual({ kind: 'waitingTill', waitTill: '2024-06-01T00:00:00Z' });
    expect(explainStatus(pastExecution('3', { finished: true, retryOf: '2' }))).toEqual({ kind: 'retrySucceeded', retryOf: '2' });
    expect(explainStatus(pastExecution('3', { finished: true }))).toEqual({ kind: 'succeeded' });
    expect(explainStatus(pastExecution('4', { retryOf: '2' }))).toEqual({ kind: 'retryFailed', retryOf: '2' });
    expect(explainStatus(pastExecution('4', { retrySuccessId: '9' }))).toEqual({ kind: 'failedRetrySucceeded', retrySuccessId: '9' });
    expect(explainStatus(pastExecution('4'))).toEqual({ kind: 'failed' });
  });

  it('treats a missing or null stoppedAt of an opened execution as running', () => {
    expect(openedExecutionState(pastExecution('1', { stoppedAt: null }))).toBe('running');
    expect(openedExecutionState(pastExecution('1', { finished: true }))).toBe('success');
    expect(openedExecutionState(pastExecution('1'))).toBe('error');
    expect(openedExecutionState(pastExecution('1', { waitTill: '2024-06-01T00:00:00Z' }))).toBe('waiting');
  });

  it('recognises the far-future wait as indefinite', () => {
    expect(isWaitingIndefinitely(WAIT_TIME_UNLIMITED)).toBe(true);
    expect(isWaitingIndefinitely('3000-01-01T00:00:00Z')).toBe(true);
    expect(isWaitingIndefinitely('2030-01-01T00:00:00Z')).toBe(false);
    expect(isWaitingIndefinitely(null)).toBe(false);
  });
});

describe('retry and stop availability', () => {
  it('offers retry only for stopped, unfinished executions that are no retry, have no successful retry and do not wait', () => {
    expect(canRetry(pastExecution('1'))).toBe(true);
    expect(canRetry(pastExecution('1', { stoppedAt: null }))).toBe(true);
    expect(canRetry(currentExecution('1'))).toBe(false);
    expect(canRetry(pastExecution('1', { finished: true }))).toBe(false);
    expect(canRetry(pastExecution('1', { retryOf: '7' }))).toBe(false);
    expect(canRetry(pastExecution('1', { retrySuccessId: '8' }))).toBe(false);
    expect(canRetry(pastExecution('1', { waitTill: '2024-06-01T00:00:00Z' }))).toBe(false);
  });

  it('offers stop for running or waiting executions only', () => {
    expect(canStop(currentExecution('1'))).toBe(true);
    expect(canStop(pastExecution('1', { waitTill: '2024-06-01T00:00:00Z' }))).toBe(true);
    expect(canStop(pastExecution('1'))).toBe(false);
    expect(canStop(pastExecution('1', { finished: true }))).toBe(false);
    expect(canStop(pastExecution('1', { stoppedAt: null }))).toBe(false);
  });

  it('lets only past executions be opened and selected', () => {
    expect(isPast(pastExecution('1'))).toBe(true);
    expect(isPast(pastExecution('1', { stoppedAt: null }))).toBe(true);
    expect(isPast(currentExecution('1'))).toBe(false);
  });
});
