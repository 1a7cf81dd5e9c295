import { describe, expect, it } from 'vitest';
import { applyChanges } from './changes';
import { listConnections, mainConnection } from './connections';
import { planAddNode, planConnect, planDeleteNodes, planDuplicate, planImport, planRename, planToggleDisabled, type Plan } from './edits';
import { TEST_INDEX, testType } from './testTypes';
import type { Graph, WorkflowNode } from './types';

function node(name: string, type: string, position: [number, number]): WorkflowNode {
  return { name, type: `n8n-nodes-base.${type}`, typeVersion: 1, position, parameters: {} };
}

function graphOf(nodes: WorkflowNode[], links: Array<[string, string, number?]> = []): Graph {
  let graph: Graph = { nodes, connections: {} };
  for (const [source, target, index] of links) graph = applyChanges(graph, planConnect(graph, mainConnection(source, index ?? 0, target, 0))).graph;
  return graph;
}

function applied(graph: Graph, plan: Plan): Graph {
  if (!plan.ok) throw new Error(`plan refused: ${plan.error.kind}`);
  return applyChanges(graph, plan.changes).graph;
}

function links(graph: Graph): string[] {
  return listConnections(graph.connections).map((c) => `${c.source}:${c.sourceIndex}->${c.target}:${c.targetIndex}`);
}

describe('adding nodes', () => {
  it('names a new node uniquely with a numeric suffix', () => {
    const graph = graphOf([node('Set', 'set', [0, 0]), node('Set1', 'set', [0, 200])]);
    const plan = planAddNode(graph, TEST_INDEX, { type: testType('set'), position: [400, 400] });
    expect(plan.ok && plan.names).toEqual(['Set2']);
    const added = applied(graph, plan).nodes.at(-1);
    expect(added?.typeVersion).toBe(2);
    expect(added?.position).toEqual([400, 400]);
  });

  it('refuses a type past its maximum count', () => {
    const graph = graphOf([node('When clicking "Execute Workflow"', 'manualTrigger', [0, 0])]);
    const plan = planAddNode(graph, TEST_INDEX, { type: testType('manualTrigger'), position: [0, 0] });
    expect(plan).toEqual({ ok: false, error: { kind: 'maxNodes', count: 1, displayName: 'Manual Trigger' } });
  });

  it('places a node after its source and connects it', () => {
    const graph = graphOf([node('A', 'set', [240, 300])]);
    const next = applied(graph, planAddNode(graph, TEST_INDEX, { type: testType('set'), position: [0, 0], source: { node: 'A', outputIndex: 0 } }));
    expect(next.nodes.find((n) => n.name === 'Set')?.position).toEqual([460, 300]);
    expect(links(next)).toEqual(['A:0->Set:0']);
  });

  it('offsets nodes added at the outputs of multi-output nodes', () => {
    const graph = graphOf([node('IF', 'if', [240, 300]), node('Switch', 'switch', [240, 1000])]);
    const falseBranch = applied(graph, planAddNode(graph, TEST_INDEX, { type: testType('set'), position: [0, 0], source: { node: 'IF', outputIndex: 1 } }));
    expect(falseBranch.nodes.at(-1)?.position).toEqual([460, 400]);
    const fourth = applied(graph, planAddNode(graph, TEST_INDEX, { type: testType('set'), position: [0, 0], source: { node: 'Switch', outputIndex: 3 } }));
    expect(fourth.nodes.at(-1)?.position).toEqual([460, 1240]);
    const first = applied(graph, planAddNode(graph, TEST_INDEX, { type: testType('set'), position: [0, 0], source: { node: 'Switch', outputIndex: 0 } }));
    expect(first.nodes.at(-1)?.position).toEqual([460, 760]);
  });

  it('does not stack a new node on an existing one', () => {
    const graph = graphOf([node('A', 'set', [400, 400])]);
    const next = applied(graph, planAddNode(graph, TEST_INDEX, { type: testType('set'), position: [400, 400] }));
    expect(next.nodes.at(-1)?.position).toEqual([440, 440]);
  });

  it('splits a connection it is inserted on and pushes later nodes right', () => {
    const graph = graphOf([node('A', 'set', [200, 300]), node('B', 'set', [420, 300]), node('C', 'set', [640, 300])], [['A', 'B'], ['B', 'C']]);
    const next = applied(graph, planAddNode(graph, TEST_INDEX, { type: testType('noOp'), position: [0, 0], splitConnection: mainConnection('A', 0, 'B', 0) }));
    expect(links(next).sort()).toEqual(['A:0->No Operation, do nothing:0', 'B:0->C:0', 'No Operation, do nothing:0->B:0']);
    expect(next.nodes.find((n) => n.name === 'B')?.position).toEqual([640, 300]);
    expect(next.nodes.find((n) => n.name === 'C')?.position).toEqual([860, 300]);
  });

  it('gives webhook nodes a webhook id and sticky notes their default size', () => {
    const graph = graphOf([]);
    const withWebhook = applied(graph, planAddNode(graph, TEST_INDEX, { type: testType('webhook'), position: [0, 0], newId: () => 'id-1' }));
    expect(withWebhook.nodes[0]).toMatchObject({ webhookId: 'id-1', parameters: { path: 'id-1' } });
    const withSticky = applied(graph, planAddNode(graph, TEST_INDEX, { type: testType('stickyNote'), position: [0, 0], parameters: { content: 'Hi' } }));
    expect(withSticky.nodes[0]?.parameters).toEqual({ width: 380, height: 300, content: 'Hi' });
  });
});

describe('deleting nodes', () => {
  it('reconnects the neighbours of a node with one input and one output', () => {
    const graph = graphOf([node('A', 'set', [0, 0]), node('B', 'set', [200, 0]), node('C', 'set', [400, 0])], [['A', 'B'], ['B', 'C']]);
    const next = applyChanges(graph, planDeleteNodes(graph, ['B'])).graph;
    expect(next.nodes.map((n) => n.name)).toEqual(['A', 'C']);
    expect(links(next)).toEqual(['A:0->C:0']);
  });

  it('does not reconnect around a node with several outgoing connections', () => {
    const graph = graphOf([node('A', 'set', [0, 0]), node('B', 'set', [200, 0]), node('C', 'set', [400, 0]), node('D', 'set', [400, 200])], [['A', 'B'], ['B', 'C'], ['B', 'D']]);
    expect(links(applyChanges(graph, planDeleteNodes(graph, ['B'])).graph)).toEqual([]);
  });

  it('keeps the only Start node', () => {
    const graph = graphOf([node('Start', 'start', [0, 0]), node('A', 'set', [200, 0])]);
    expect(applyChanges(graph, planDeleteNodes(graph, ['Start', 'A'])).graph.nodes.map((n) => n.name)).toEqual(['Start']);
  });

  it('deletes a selection of connected nodes without leaving dangling connections', () => {
    const graph = graphOf([node('A', 'set', [0, 0]), node('B', 'set', [200, 0]), node('C', 'set', [400, 0]), node('D', 'set', [600, 0])], [['A', 'B'], ['B', 'C'], ['C', 'D']]);
    const next = applyChanges(graph, planDeleteNodes(graph, ['B', 'C'])).graph;
    expect(links(next)).toEqual(['A:0->D:0']);
  });
});

describe('other edits', () => {
  it('refuses duplicate connections', () => {
    const graph = graphOf([node('A', 'set', [0, 0]), node('B', 'set', [200, 0])], [['A', 'B']]);
    expect(planConnect(graph, mainConnection('A', 0, 'B', 0))).toEqual([]);
    expect(planConnect(graph, mainConnection('A', 0, 'A', 0))).toEqual([]);
  });

  it('toggles disabled per node and skips sticky notes', () => {
    const graph = graphOf([{ ...node('A', 'set', [0, 0]), disabled: true }, node('B', 'set', [0, 0]), node('Note', 'stickyNote', [0, 0])]);
    const next = applyChanges(graph, planToggleDisabled(graph, ['A', 'B', 'Note'])).graph;
    expect(next.nodes.map((n) => n.disabled)).toEqual([undefined, true, undefined]);
  });

  it('renames with a trimmed name, makes it unique and rewires connections and expressions', () => {
    const graph = graphOf(
      [node('A', 'set', [0, 0]), { ...node('B', 'set', [200, 0]), parameters: { value: '={{ $node["A"].json.x }}' } }, node('Taken', 'set', [0, 0])],
      [['A', 'B']],
    );
    expect(planRename(graph, 'A', '   ')).toEqual([]);
    const next = applyChanges(graph, planRename(graph, 'A', ' Taken ')).graph;
    expect(next.nodes[0]?.name).toBe('Taken1');
    expect(links(next)).toEqual(['Taken1:0->B:0']);
    expect(next.nodes[1]?.parameters.value).toBe('={{ $node["Taken1"].json.x }}');
  });

  it('duplicates 140 px below with unique names and inner connections', () => {
    const graph = graphOf([node('A', 'set', [100, 100]), node('B', 'set', [300, 100])], [['A', 'B']]);
    const next = applied(graph, planDuplicate(graph, TEST_INDEX, ['A', 'B']));
    expect(next.nodes.slice(2).map((n) => [n.name, n.position])).toEqual([
      ['A1', [100, 240]],
      ['B1', [300, 240]],
    ]);
    expect(links(next).sort()).toEqual(['A1:0->B1:0', 'A:0->B:0']);
  });

  it('imports pasted nodes at the position with renamed connections', () => {
    const graph = graphOf([node('A', 'set', [0, 0])]);
    const data = graphOf([node('A', 'set', [1000, 1000]), node('X', 'set', [1200, 1100])], [['A', 'X']]);
    const next = applied(graph, planImport(graph, TEST_INDEX, data, { position: [400, 400] }));
    expect(next.nodes.slice(1).map((n) => [n.name, n.position])).toEqual([
      ['A1', [400, 400]],
      ['X', [600, 500]],
    ]);
    expect(links(next)).toEqual(['A1:0->X:0']);
  });

  it('refuses an import that would exceed a maximum count', () => {
    const graph = graphOf([node('When clicking "Execute Workflow"', 'manualTrigger', [0, 0])]);
    const data = graphOf([node('T', 'manualTrigger', [0, 0])]);
    expect(planImport(graph, TEST_INDEX, data, { position: [0, 0] }).ok).toBe(false);
  });
});
