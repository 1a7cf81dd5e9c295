import { describe, expect, it } from 'vitest';
import { IDLE_EXECUTION, runStarted } from '@/core/editor/execution';
import { TEST_INDEX } from '@/core/workflow/testTypes';
import type { NodeTypeDescription } from '@/core/workflow/nodeTypes';
import type { Graph } from '@/core/workflow/types';
import { applyLocalChanges, applySelectionChanges, CanvasModel, EMPTY_LOCAL, sameCanvasNode } from './model';

const graph: Graph = {
  nodes: [
    { name: 'A', type: 'n8n-nodes-base.set', typeVersion: 1, position: [0, 0], parameters: {} },
    { name: 'B', type: 'n8n-nodes-base.if', typeVersion: 1, position: [200, 0], parameters: {} },
    { name: 'Note', type: 'n8n-nodes-base.stickyNote', typeVersion: 1, position: [0, 300], parameters: { content: '# Hi', width: 200, height: 100 } },
    { name: 'X', type: 'n8n-nodes-base.unknown', typeVersion: 1, position: [400, 0], parameters: {} },
    { name: 'Newer', type: 'n8n-nodes-base.set', typeVersion: 3.4, position: [600, 0], parameters: {} },
  ],
  connections: { A: { main: [[{ node: 'B', type: 'main', index: 0 }]] }, B: { main: [[], [{ node: 'X', type: 'main', index: 0 }]] } },
};

describe('canvas model', () => {
  it('reuses node objects whose inputs did not change', () => {
    const model = new CanvasModel();
    const first = model.nodes(graph, TEST_INDEX, [], IDLE_EXECUTION);
    const second = model.nodes(graph, TEST_INDEX, ['B'], IDLE_EXECUTION);
    expect(second[0]).toBe(first[0]);
    expect(second[1]).not.toBe(first[1]);
    expect(second[1]?.selected).toBe(true);
  });

  it('keeps node objects that draw the same when the type descriptions are replaced', async () => {
    const { NodeTypeIndex } = await import('@/core/workflow/nodeTypes');
    const model = new CanvasModel();
    const first = model.nodes(graph, TEST_INDEX, [], IDLE_EXECUTION);
    // Fresh descriptions (as after a reload of the type list) that draw the same cards.
    const copy = new NodeTypeIndex(TEST_INDEX.latest().map((type) => structuredClone(type)));
    const second = model.nodes(graph, copy, [], IDLE_EXECUTION);
    second.forEach((node, i) => expect(node).toBe(first[i]));
  });

  it('compares what a node draws', () => {
    const [a, b] = new CanvasModel().nodes(graph, TEST_INDEX, [], IDLE_EXECUTION);
    if (!a || !b || a.type !== 'canvasNode') throw new Error('expected canvas nodes');
    expect(sameCanvasNode(a, { ...a, data: { ...a.data, connectedOutputs: [...a.data.connectedOutputs] } })).toBe(true);
    expect(sameCanvasNode(a, { ...a, data: { ...a.data, issues: ['parameters:URL'] } })).toBe(false);
    expect(sameCanvasNode(a, { ...a, data: { ...a.data, subtitle: 'GET' } })).toBe(false);
    expect(sameCanvasNode(a, { ...a, position: { x: 1, y: 0 } })).toBe(false);
    expect(sameCanvasNode(a, { ...a, selected: true })).toBe(false);
    expect(sameCanvasNode(a, b)).toBe(false);
  });

  it('describes outputs, stickies and unknown types', () => {
    const [a, b, note, unknown] = new CanvasModel().nodes(graph, TEST_INDEX, [], IDLE_EXECUTION);
    expect(a?.data).toMatchObject({ outputs: 1, connectedOutputs: [true] });
    expect(b?.data).toMatchObject({ outputs: 2, outputNames: ['true', 'false'], connectedOutputs: [false, true] });
    expect(note).toMatchObject({ type: 'stickyNote', width: 200, height: 100, zIndex: -200 });
    expect(unknown?.data).toMatchObject({ issues: ['typeUnknown'], inputs: 1, outputs: 1 });
  });

  it('marks a node whose version the instance does not have, naming the versions it has', async () => {
    const { issueText } = await import('@/views/nodeView/issueText');
    const newer = new CanvasModel().nodes(graph, TEST_INDEX, [], IDLE_EXECUTION)[4];
    expect(newer?.data).toMatchObject({ issues: ['typeVersionUnknown:3.4:1, 2'], inputs: 1, outputs: 1 });
    expect(issueText('typeVersionUnknown:3.4:1, 2')).toBe(
      'Install this node to use it: version 3.4 is not currently installed (this instance has 1, 2). It is from a newer version of n8n: upgrade, or replace the node.',
    );
    expect(issueText('typeUnknown')).toContain('It is either from a newer version of n8n, a custom node, or has an invalid structure.');
  });

  it('gives a trigger its event hint only while a run waits for it', () => {
    const hooked: Graph = { nodes: [{ name: 'Hook', type: 'n8n-nodes-base.webhook', typeVersion: 1, position: [0, 0], parameters: {} }], connections: {} };
    const hint = (execution: typeof IDLE_EXECUTION) => new CanvasModel().nodes(hooked, TEST_INDEX, [], execution)[0]?.data.eventHint;
    expect(hint(IDLE_EXECUTION)).toBeNull();
    expect(hint(runStarted(IDLE_EXECUTION, null, true))).toBe('Waiting for you to call the Test URL');
    const task = { startTime: 1, executionTime: 1, source: [], data: { main: [[{ json: {} }]] } };
    expect(hint({ ...runStarted(IDLE_EXECUTION, 'e', false), runData: { Hook: [task] } })).toBeNull();
  });

  it('reports run status and item counts on nodes and edges', () => {
    const task = { startTime: 1, executionTime: 1, source: [], data: { main: [[{ json: {} }, { json: {} }]] } };
    const execution = { ...runStarted(IDLE_EXECUTION, 'e', false), runData: { A: [task] }, executing: ['B'] };
    const model = new CanvasModel();
    const [a, b] = model.nodes(graph, TEST_INDEX, [], execution);
    expect(a?.data).toMatchObject({ success: true, itemCount: 2 });
    expect(b?.data).toMatchObject({ executing: true });
    expect(model.edges(graph, execution)[0]?.data?.items).toBe(2);
  });

  it('keeps the last picked node last and tracks drag positions until cleared', () => {
    expect(applySelectionChanges(['A', 'B'], [{ id: 'A', selected: true }])).toEqual(['B', 'A']);
    expect(applySelectionChanges(['A', 'B'], [{ id: 'B', selected: false }])).toEqual(['A']);
    const local = applyLocalChanges(EMPTY_LOCAL, [{ type: 'position', id: 'A', position: { x: 5, y: 6 } }]);
    expect(local.positions.get('A')).toEqual({ x: 5, y: 6 });
    expect(applyLocalChanges(local, [{ type: 'select', id: 'A', selected: true }])).toBe(local);
  });

  it('draws the outputs a Switch rule set gives and the inputs Merge 3 asks for, keeping used handles', async () => {
    const { NodeTypeIndex } = await import('@/core/workflow/nodeTypes');
    const switch3: NodeTypeDescription = {
      name: 'n8n-nodes-base.switch',
      displayName: 'Switch',
      group: ['transform'],
      version: 3,
      defaults: { name: 'Switch' },
      inputs: ['main'],
      outputs: ['main', 'main', 'main', 'main'],
      properties: [
        { displayName: 'Routing Rules', name: 'rules', type: 'fixedCollection', typeOptions: { multipleValues: true }, default: { values: [{}] }, options: [{ name: 'values', displayName: 'Values', values: [{ displayName: 'Output Key', name: 'outputKey', type: 'string', default: '' }] }] },
        { displayName: 'Options', name: 'options', type: 'collection', default: {}, options: [{ displayName: 'Fallback Output', name: 'fallbackOutput', type: 'options', default: 'none' }] },
      ],
    };
    const merge3: NodeTypeDescription = { ...switch3, name: 'n8n-nodes-base.merge', displayName: 'Merge', inputs: ['main', 'main'], outputs: ['main'], properties: [{ displayName: 'Number of Inputs', name: 'numberInputs', type: 'options', default: 2 }] };
    const index = new NodeTypeIndex([switch3, merge3]);
    const rules = { values: [{}, {}] };
    const nodes = new CanvasModel().nodes(
      {
        nodes: [
          { name: 'S', type: switch3.name, typeVersion: 3, position: [0, 0], parameters: { rules, options: { fallbackOutput: 'extra' } } },
          { name: 'Two', type: switch3.name, typeVersion: 3, position: [0, 200], parameters: { rules } },
          { name: 'M', type: merge3.name, typeVersion: 3, position: [200, 0], parameters: { numberInputs: 3 } },
        ],
        // Two had a third rule once: its connection keeps the handle.
        connections: { Two: { main: [[], [], [{ node: 'M', type: 'main', index: 2 }]] } },
      },
      index,
      [],
      IDLE_EXECUTION,
    );
    expect(nodes[0]?.data).toMatchObject({ outputs: 3, outputNames: ['0', '1', 'Fallback'] });
    expect(nodes[1]?.data).toMatchObject({ outputs: 3, connectedOutputs: [false, false, true] });
    expect(nodes[2]?.data).toMatchObject({ inputs: 3, outputs: 1 });
  });
});

describe('subtitles', () => {
  it('are evaluated once the full description with defaults is known', async () => {
    const { NodeTypeIndex } = await import('@/core/workflow/nodeTypes');
    const http = {
      name: 'n8n-nodes-base.httpRequest',
      displayName: 'HTTP Request',
      group: ['output'],
      version: 2,
      defaults: { name: 'HTTP Request' },
      inputs: ['main'],
      outputs: ['main'],
      subtitle: '={{$parameter["requestMethod"] + ": " + $parameter["url"]}}',
    };
    const list = new NodeTypeIndex([http]);
    const details = new NodeTypeIndex([{ ...http, properties: [{ name: 'requestMethod', displayName: 'Method', type: 'options', default: 'GET' }] }]);
    const flow: Graph = { nodes: [{ name: 'Get', type: http.name, typeVersion: 2, position: [0, 0], parameters: { url: 'https://x.io' } }], connections: {} };
    const model = new CanvasModel();
    expect(model.nodes(flow, list, [], IDLE_EXECUTION)[0]?.data).toMatchObject({ subtitle: null });
    expect(model.nodes(flow, list, [], IDLE_EXECUTION, undefined, details)[0]?.data).toMatchObject({ subtitle: 'GET: https://x.io' });
  });
});
