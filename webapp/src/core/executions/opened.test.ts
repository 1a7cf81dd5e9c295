import { describe, expect, it } from 'vitest';
import { openedExecutionNotices } from './opened';

const run = (error?: { message: string }) => ({ startTime: 0, executionTime: 1, source: [], data: { main: [[]] }, ...(error ? { error } : {}) });

describe('openedExecutionNotices', () => {
  it('reports a workflow error that no node run carries', () => {
    const execution = { finished: false, data: { resultData: { runData: { Start: [run()] }, error: { message: 'Timeout reached' } } } };
    expect(openedExecutionNotices(execution)).toEqual([{ kind: 'failed', message: 'Timeout reached' }]);
  });

  it('stays quiet when a node failed (its error shows on the node) or the execution finished', () => {
    const nodeFailed = { finished: false, data: { resultData: { runData: { Set: [run({ message: 'bad' })] }, error: { message: 'bad' } } } };
    expect(openedExecutionNotices(nodeFailed)).toEqual([]);
    expect(openedExecutionNotices({ finished: true, data: { resultData: { runData: {} } } })).toEqual([]);
  });

  it('tells that a waiting execution has not finished yet', () => {
    expect(openedExecutionNotices({ finished: false, waitTill: '2030-01-01T00:00:00Z', data: { resultData: { runData: {} } } })).toEqual([{ kind: 'waiting' }]);
  });
});
