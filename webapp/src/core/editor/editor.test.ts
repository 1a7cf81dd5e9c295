import { describe, expect, it } from 'vitest';
import { mainConnection } from '@/core/workflow/connections';
import { planAddNode } from '@/core/workflow/edits';
import { TEST_INDEX, TEST_TYPES, testType } from '@/core/workflow/testTypes';
import type { Graph, WorkflowNode, WorkflowSummary } from '@/core/workflow/types';
import { applyPushMessage, IDLE_EXECUTION, isForOtherExecution, nodeRunStatus, runOutcome, runStarted } from './execution';
import { arrowTarget, extendedSelection } from './navigation';
import { categoryTree, initialExpanded, searchResults } from './nodeCreator';
import { EditorStore } from './store';
import { checkTimeout, parseTimeoutInput, toParts } from './timeout';
import { DEFAULT_WORKFLOW_SORT, filterWorkflows, sortWorkflows, visibleTags } from './workflowList';

function node(name: string, position: [number, number]): WorkflowNode {
  return { name, type: 'n8n-nodes-base.set', typeVersion: 1, position, parameters: {} };
}

describe('editor store', () => {
  it('undoes and redoes edits and tracks unsaved changes', () => {
    const store = new EditorStore();
    const plan = planAddNode(store.getState().graph, TEST_INDEX, { type: testType('set'), position: [100, 100] });
    if (!plan.ok) throw new Error('refused');
    store.edit(plan.changes, { select: plan.names });
    expect(store.getState()).toMatchObject({ dirty: true, selected: ['Set'] });
    store.edit([{ kind: 'renameNode', from: 'Set', to: 'Renamed' }]);
    expect(store.getState().selected).toEqual(['Renamed']);
    expect(store.undo()).toBe(true);
    expect(store.getState().graph.nodes.map((n) => n.name)).toEqual(['Set']);
    expect(store.undo()).toBe(true);
    expect(store.getState().graph.nodes).toEqual([]);
    expect(store.undo()).toBe(false);
    expect(store.redo()).toBe(true);
    expect(store.redo()).toBe(true);
    expect(store.getState().graph.nodes.map((n) => n.name)).toEqual(['Renamed']);
    store.markSaved({ id: '7' });
    expect(store.getState().dirty).toBe(false);
  });

  it('a new edit ends the redo branch; an edit that does not fit leaves the state alone', () => {
    const store = new EditorStore();
    store.load({ name: 'x' }, { nodes: [node('A', [0, 0])], connections: {} });
    store.edit([{ kind: 'moveNode', name: 'A', position: [20, 20] }]);
    store.undo();
    store.edit([{ kind: 'moveNode', name: 'A', position: [40, 40] }]);
    expect(store.redo()).toBe(false);
    const before = store.getState();
    expect(() => store.edit([{ kind: 'removeNode', name: 'nope' }])).toThrow();
    expect(store.getState()).toBe(before);
  });

  it('notes when parameters change, following renames and dropping removed nodes', () => {
    const store = new EditorStore();
    store.load({ name: 'x' }, { nodes: [node('A', [0, 0]), node('B', [200, 0])], connections: {} });
    store.edit([{ kind: 'moveNode', name: 'A', position: [20, 20] }]);
    expect(store.getState().parametersChangedAt).toEqual({});
    const before = Date.now();
    store.edit([{ kind: 'updateNode', name: 'A', patch: { parameters: { value: 1 } } }]);
    expect(store.getState().parametersChangedAt.A).toBeGreaterThanOrEqual(before);
    store.edit([{ kind: 'renameNode', from: 'A', to: 'C' }]);
    expect(Object.keys(store.getState().parametersChangedAt)).toEqual(['C']);
    store.edit([{ kind: 'removeNode', name: 'C' }]);
    expect(store.getState().parametersChangedAt).toEqual({});
  });
});

describe('arrow navigation', () => {
  const graph: Graph = {
    nodes: [node('A', [0, 100]), node('B', [200, 0]), node('C', [200, 200]), node('D', [400, 0])],
    connections: {
      A: { main: [[{ node: 'C', type: 'main', index: 0 }, { node: 'B', type: 'main', index: 0 }]] },
      B: { main: [[{ node: 'D', type: 'main', index: 0 }]] },
    },
  };

  it('moves along connections and between siblings', () => {
    expect(arrowTarget(graph, 'A', 'ArrowRight')).toBe('B');
    expect(arrowTarget(graph, 'D', 'ArrowLeft')).toBe('B');
    expect(arrowTarget(graph, 'B', 'ArrowDown')).toBe('C');
    expect(arrowTarget(graph, 'C', 'ArrowUp')).toBe('B');
    expect(arrowTarget(graph, 'C', 'ArrowDown')).toBeNull();
    expect(arrowTarget(graph, 'A', 'ArrowLeft')).toBeNull();
  });

  it('extends the selection downstream and upstream', () => {
    expect(extendedSelection(graph, 'A', 'downstream').sort()).toEqual(['A', 'B', 'C', 'D']);
    expect(extendedSelection(graph, 'D', 'upstream')).toEqual(['D', 'B', 'A']);
  });
});

describe('node creator', () => {
  it('searches display names and aliases, trimmed and in any case, without hidden types', () => {
    expect(searchResults(TEST_TYPES, 'All', '  condition ').map((t) => t.displayName)).toEqual(['IF']);
    expect(searchResults(TEST_TYPES, 'All', 'START')).toEqual([]);
    expect(searchResults(TEST_TYPES, 'Trigger', 'e').map((t) => t.displayName)).toEqual(['Manual Trigger', 'Webhook']);
    expect(searchResults(TEST_TYPES, 'Regular', 'webhook')).toEqual([]);
  });

  it('groups by category and subcategory with the first category expanded', () => {
    const expanded = initialExpanded(TEST_TYPES, 'All');
    expect([...expanded]).toEqual(['Core Nodes']);
    const rows = categoryTree(TEST_TYPES, 'All', expanded);
    expect(rows.map((r) => r.key)).toEqual(['Core Nodes', 'Core Nodes/Flow', 'Core Nodes/Data Transformation', 'Core Nodes/Helpers', 'Custom Nodes']);
    const open = categoryTree(TEST_TYPES, 'Trigger', new Set(['Core Nodes', 'Core Nodes/Flow']));
    expect(open.filter((r) => r.type === 'node').map((r) => (r.type === 'node' ? r.nodeType.displayName : ''))).toEqual(['Manual Trigger']);
  });
});

describe('workflow list', () => {
  const tag = (id: string) => ({ id, name: `t${id}` });
  const list: WorkflowSummary[] = [
    { id: '1', name: 'Alpha', active: false, createdAt: '2024-01-01T00:00:00Z', updatedAt: '2024-01-05T00:00:00Z', tags: [tag('1'), tag('2')] },
    { id: '2', name: 'beta ALPHA', active: true, createdAt: '2024-01-02T00:00:00Z', updatedAt: '2024-01-09T00:00:00Z', tags: [tag('2')] },
    { id: '3', name: 'Gamma', active: false, createdAt: '2024-01-03T00:00:00Z', updatedAt: '2024-01-07T00:00:00Z', tags: [] },
  ];

  it('filters by name substring in any case and by all chosen tags', () => {
    expect(filterWorkflows(list, { name: 'alpha', tagIds: [] }).map((w) => w.id)).toEqual(['1', '2']);
    expect(filterWorkflows(list, { name: '', tagIds: ['1', '2'] }).map((w) => w.id)).toEqual(['1']);
    expect(filterWorkflows(list, { name: '', tagIds: ['2'] }).map((w) => w.id)).toEqual(['1', '2']);
  });

  it('sorts by update time, newest first, by default', () => {
    expect(sortWorkflows(list, DEFAULT_WORKFLOW_SORT).map((w) => w.id)).toEqual(['2', '3', '1']);
    expect(sortWorkflows(list, { key: 'name', direction: 'asc' }).map((w) => w.id)).toEqual(['1', '2', '3']);
  });

  it('shows at most the limit of tags and counts the rest', () => {
    expect(visibleTags([1, 2, 3, 4, 5], 3)).toEqual({ shown: [1, 2, 3], hidden: 2 });
  });
});

describe('timeout', () => {
  it('parses inputs and checks the limits', () => {
    expect(parseTimeoutInput('')).toBe(0);
    expect(parseTimeoutInput('12abc')).toBe(12);
    expect(toParts(3725)).toEqual({ hours: 1, minutes: 2, seconds: 5 });
    expect(checkTimeout(false, { hours: 0, minutes: 0, seconds: 0 }, 100)).toEqual({ ok: true, seconds: -1 });
    expect(checkTimeout(true, { hours: 0, minutes: 0, seconds: 0 }, 100)).toEqual({ ok: false, reason: 'zero' });
    expect(checkTimeout(true, { hours: 0, minutes: 1, seconds: 5 }, 3600)).toEqual({ ok: true, seconds: 65 });
    expect(checkTimeout(true, { hours: 1, minutes: 0, seconds: 1 }, 3600)).toEqual({ ok: false, reason: 'overMax', max: { hours: 1, minutes: 0, seconds: 0 } });
  });
});

describe('execution state', () => {
  it('follows push messages of its run', () => {
    let state = runStarted(IDLE_EXECUTION, 'e1', false);
    state = applyPushMessage(state, { type: 'nodeExecuteBefore', data: { executionId: 'e1', nodeName: 'A' } });
    expect(nodeRunStatus(state, 'A').executing).toBe(true);
    state = applyPushMessage(state, { type: 'nodeExecuteBefore', data: { executionId: 'other', nodeName: 'B' } });
    expect(state.executing).toEqual(['A']);
    const task = { startTime: 1, executionTime: 1, source: [], data: { main: [[{ json: {} }, { json: {} }], [{ json: {} }]] } };
    state = applyPushMessage(state, { type: 'nodeExecuteAfter', data: { executionId: 'e1', nodeName: 'A', data: task } });
    expect(nodeRunStatus(state, 'A')).toMatchObject({ executing: false, success: true, itemCount: 3, outputItems: [2, 1] });
    const result = { data: { resultData: { runData: { A: [task] }, lastNodeExecuted: 'A' } }, finished: true, mode: 'manual', startedAt: '' };
    state = applyPushMessage(state, { type: 'executionFinished', data: { executionId: 'e1', data: result } });
    expect(state.status).toBe('idle');
    expect(runOutcome(result)).toEqual({ kind: 'success' });
  });

  it('reports node errors and waiting runs', () => {
    const failed = {
      data: { resultData: { runData: { B: [{ startTime: 1, executionTime: 1, source: [], error: { message: 'boom' } }] }, lastNodeExecuted: 'B', error: { message: 'boom' } } },
      finished: false,
      mode: 'manual',
      startedAt: '',
    };
    expect(runOutcome(failed)).toEqual({ kind: 'nodeError', node: 'B', message: 'boom' });
    expect(runOutcome({ ...failed, waitTill: '3000-01-01' })).toEqual({ kind: 'waiting' });
    expect(runOutcome({ data: { resultData: { runData: {} } }, finished: false, mode: 'manual', startedAt: '' })).toEqual({ kind: 'failed', message: null });
  });

  it('holds back node messages of another execution, and keeps the data a partial run reuses', () => {
    const before = { type: 'nodeExecuteBefore' as const, data: { executionId: 'e2', nodeName: 'A' } };
    expect(isForOtherExecution(IDLE_EXECUTION, before)).toBe(false);
    expect(isForOtherExecution(runStarted(IDLE_EXECUTION, null, false), before)).toBe(false);
    expect(isForOtherExecution(runStarted(IDLE_EXECUTION, 'e1', false), before)).toBe(true);
    expect(isForOtherExecution(runStarted(IDLE_EXECUTION, 'e2', false), before)).toBe(false);
    expect(isForOtherExecution(runStarted(IDLE_EXECUTION, 'e1', false), { type: 'executionStarted', data: { executionId: 'e2', mode: 'manual', startedAt: '', workflowId: '1' } })).toBe(false);
    const kept = { A: [{ startTime: 1, executionTime: 1, source: [] }] };
    expect(runStarted(IDLE_EXECUTION, null, false, kept).runData).toBe(kept);
  });
});

it('connection helper builds main connections', () => {
  expect(mainConnection('A', 1, 'B', 0)).toEqual({ source: 'A', sourceIndex: 1, target: 'B', targetIndex: 0, type: 'main' });
});

describe('workflow commands', () => {
  it('enables operations by page and saved state and routes them to the editor', async () => {
    const { CommandBus, isCommandEnabled, formatUpdateCount } = await import('./commands');
    expect(isCommandEnabled('open', { onWorkflowPage: false, hasWorkflow: false })).toBe(true);
    expect(isCommandEnabled('download', { onWorkflowPage: false, hasWorkflow: false })).toBe(false);
    expect(isCommandEnabled('download', { onWorkflowPage: true, hasWorkflow: false })).toBe(true);
    expect(isCommandEnabled('delete', { onWorkflowPage: true, hasWorkflow: false })).toBe(false);
    const bus = new CommandBus();
    const seen: string[] = [];
    expect(bus.dispatch('save')).toBe(false);
    const off = bus.register((c) => seen.push(c), { onWorkflowPage: true, hasWorkflow: false });
    expect(bus.dispatch('save')).toBe(true);
    expect(bus.dispatch('settings')).toBe(false);
    off();
    expect(bus.getAvailability()).toEqual({ onWorkflowPage: false, hasWorkflow: false });
    expect(seen).toEqual(['save']);
    expect(formatUpdateCount(99)).toBe('99');
    expect(formatUpdateCount(100)).toBe('99+');
  });
});

describe('demo frame commands', () => {
  it('reads openWorkflow commands and refuses workflows without nodes or connections', async () => {
    const { readFrameCommand, InvalidWorkflowError } = await import('./frame');
    const workflow = { name: 'W', nodes: [{ name: 'A', type: 't', typeVersion: 1, position: [0, 0], parameters: {} }], connections: {} };
    expect(readFrameCommand(JSON.stringify({ command: 'openWorkflow', workflow }))?.name).toBe('W');
    expect(readFrameCommand({ command: 'openWorkflow', workflow })?.nodes).toHaveLength(1);
    expect(readFrameCommand({ command: 'other' })).toBeNull();
    expect(readFrameCommand('not json')).toBeNull();
    expect(() => readFrameCommand({ command: 'openWorkflow', workflow: { nodes: [] } })).toThrow(InvalidWorkflowError);
    expect(() => readFrameCommand({ command: 'openWorkflow', workflow: { nodes: [] } })).toThrow('Invalid workflow object');
  });
});
