import { describe, expect, it } from 'vitest';
import { applyChanges } from './changes';
import { listConnections, mainConnection } from './connections';
import { planConnect, planImport, type Plan } from './edits';
import { untouchedStart } from './importRules';
import { TEST_INDEX } from './testTypes';
import type { Graph, WorkflowNode } from './types';

function node(name: string, type: string, position: [number, number], extra: Partial<WorkflowNode> = {}): WorkflowNode {
  return { name, type: `n8n-nodes-base.${type}`, typeVersion: 1, position, parameters: {}, ...extra };
}

function graphOf(nodes: WorkflowNode[], links: Array<[string, string]> = []): Graph {
  let graph: Graph = { nodes, connections: {} };
  for (const [source, target] of links) graph = applyChanges(graph, planConnect(graph, mainConnection(source, 0, target, 0))).graph;
  return graph;
}

function applied(graph: Graph, plan: Plan): Graph {
  if (!plan.ok) throw new Error(`plan refused: ${plan.error.kind}`);
  return applyChanges(graph, plan.changes).graph;
}

function links(graph: Graph): string[] {
  return listConnections(graph.connections).map((c) => `${c.source}->${c.target}`);
}

const freshStart = () => node('Start', 'start', [240, 300]);
/** A downloaded workflow: Start → Set → IF, with an expression naming the Start. */
const exported = () =>
  graphOf([node('Start', 'start', [100, 100]), node('Set', 'set', [300, 100], { parameters: { v: '={{ $node["Start"].json.a }}' } }), node('IF', 'if', [500, 100])], [
    ['Start', 'Set'],
    ['Set', 'IF'],
  ]);

describe('the untouched Start', () => {
  it('is the lone fresh Start, sticky notes aside', () => {
    expect(untouchedStart(graphOf([freshStart()]), TEST_INDEX)?.name).toBe('Start');
    expect(untouchedStart(graphOf([freshStart(), node('Note', 'stickyNote', [0, 0])]), TEST_INDEX)?.name).toBe('Start');
  });

  it('is not a Start that was moved, renamed, edited, connected or has company', () => {
    expect(untouchedStart(graphOf([node('Start', 'start', [260, 300])]), TEST_INDEX)).toBeUndefined();
    expect(untouchedStart(graphOf([node('Begin', 'start', [240, 300])]), TEST_INDEX)).toBeUndefined();
    expect(untouchedStart(graphOf([node('Start', 'start', [240, 300], { notes: 'mine' })]), TEST_INDEX)).toBeUndefined();
    expect(untouchedStart(graphOf([node('Start', 'start', [240, 300], { disabled: true })]), TEST_INDEX)).toBeUndefined();
    expect(untouchedStart(graphOf([freshStart(), node('Set', 'set', [500, 300])]), TEST_INDEX)).toBeUndefined();
    expect(untouchedStart(graphOf([freshStart(), node('Set', 'set', [500, 300])], [['Start', 'Set']]), TEST_INDEX)).toBeUndefined();
  });
});

describe('importing a workflow with its own Start', () => {
  it('replaces the untouched Start and keeps every node and connection', () => {
    const graph = graphOf([freshStart()]);
    const plan = planImport(graph, TEST_INDEX, exported(), { position: [400, 400] });
    expect(plan.ok && plan.skipped).toBeUndefined();
    const next = applied(graph, plan);
    expect(next.nodes.map((n) => [n.name, n.position])).toEqual([
      ['Start', [400, 400]],
      ['Set', [600, 400]],
      ['IF', [800, 400]],
    ]);
    expect(links(next)).toEqual(['Start->Set', 'Set->IF']);
  });

  it('into a canvas whose Start is in use leaves the imported Start out, drops its connections and adds the rest', () => {
    const graph = graphOf([freshStart(), node('Work', 'set', [460, 300])], [['Start', 'Work']]);
    const plan = planImport(graph, TEST_INDEX, exported(), { position: [400, 600] });
    expect(plan.ok && plan.skipped).toEqual({ kind: 'maxNodes', count: 1, displayName: 'Start', nodes: ['Start'] });
    const next = applied(graph, plan);
    expect(next.nodes.map((n) => n.name)).toEqual(['Start', 'Work', 'Set', 'IF']);
    expect(links(next)).toEqual(['Start->Work', 'Set->IF']);
    expect(next.nodes.filter((n) => n.type === 'n8n-nodes-base.start')).toHaveLength(1);
    // The expression keeps naming the Start that is there.
    expect(next.nodes[2]?.parameters.v).toBe('={{ $node["Start"].json.a }}');
  });

  it('refuses when nothing but over-limit nodes would be added', () => {
    const graph = graphOf([freshStart(), node('Work', 'set', [460, 300])], [['Start', 'Work']]);
    const plan = planImport(graph, TEST_INDEX, graphOf([node('Start', 'start', [0, 0])]), { position: [0, 0] });
    expect(plan).toEqual({ ok: false, error: { kind: 'maxNodes', count: 1, displayName: 'Start' } });
  });
});
