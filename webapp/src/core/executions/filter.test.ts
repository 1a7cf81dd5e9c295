import { describe, expect, it } from 'vitest';
import { currentExecutionsQuery, pastExecutionsQuery, showsCurrent, showsPast } from './filter';
import { ALL_WORKFLOWS, DEFAULT_EXECUTIONS_FILTER } from './types';

describe('executions list filters', () => {
  it('defaults to all workflows and any status', () => {
    expect(DEFAULT_EXECUTIONS_FILTER).toEqual({ workflowId: ALL_WORKFLOWS, status: 'ALL' });
    expect(pastExecutionsQuery(DEFAULT_EXECUTIONS_FILTER)).toEqual({});
    expect(currentExecutionsQuery(DEFAULT_EXECUTIONS_FILTER)).toEqual({});
  });

  it('maps the status to finished or waitTill as n8n does', () => {
    expect(pastExecutionsQuery({ workflowId: ALL_WORKFLOWS, status: 'error' })).toEqual({ finished: false });
    expect(pastExecutionsQuery({ workflowId: ALL_WORKFLOWS, status: 'success' })).toEqual({ finished: true });
    expect(pastExecutionsQuery({ workflowId: ALL_WORKFLOWS, status: 'waiting' })).toEqual({ waitTill: true });
    expect(pastExecutionsQuery({ workflowId: ALL_WORKFLOWS, status: 'running' })).toEqual({});
  });

  it('adds the chosen workflow to both queries', () => {
    expect(pastExecutionsQuery({ workflowId: '42', status: 'success' })).toEqual({ workflowId: '42', finished: true });
    expect(currentExecutionsQuery({ workflowId: '42', status: 'success' })).toEqual({ workflowId: '42' });
  });

  it('shows running executions from the current list and the others from the past list', () => {
    expect([showsCurrent('ALL'), showsPast('ALL')]).toEqual([true, true]);
    expect([showsCurrent('running'), showsPast('running')]).toEqual([true, false]);
    for (const status of ['error', 'success', 'waiting'] as const) expect([showsCurrent(status), showsPast(status)]).toEqual([false, true]);
  });
});
