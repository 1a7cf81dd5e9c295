import { describe, expect, it } from 'vitest';
import { mainConnection, addConnection } from '@/core/workflow/connections';
import type { Graph, WorkflowNode } from '@/core/workflow/types';
import type { TaskData } from '@/core/push/messages';
import { planPartialRun } from './partialRun';

function node(name: string, disabled = false): WorkflowNode {
  return { name, type: 'n8n-nodes-base.set', typeVersion: 1, position: [0, 0], parameters: {}, disabled };
}

function chain(names: string[], extra: WorkflowNode[] = []): Graph {
  let connections = {};
  for (let i = 1; i < names.length; i++) connections = addConnection(connections, mainConnection(names[i - 1] ?? '', 0, names[i] ?? '', 0));
  return { nodes: [...names.map((name) => node(name)), ...extra], connections };
}

function run(startTime: number): TaskData {
  return { startTime, executionTime: 1, source: [], data: { main: [[{ json: { at: startTime } }]] } };
}

describe('partial runs', () => {
  it('runs in full when the editor has no data', () => {
    expect(planPartialRun(chain(['A', 'B', 'C']), null, 'C')).toEqual({ runData: undefined, startNodes: ['C'] });
    expect(planPartialRun(chain(['A', 'B', 'C']), {}, 'C')).toEqual({ runData: undefined, startNodes: ['C'] });
  });

  it('reuses the first run of every ancestor with data and starts at the destination', () => {
    const data = { A: [run(1), run(2)], B: [run(3)] };
    expect(planPartialRun(chain(['A', 'B', 'C']), data, 'C')).toEqual({ runData: { A: [run(1)], B: [run(3)] }, startNodes: ['C'] });
  });

  it('starts at the first node without data on the walk up from a parent', () => {
    const data = { A: [run(1)] };
    const plan = planPartialRun(chain(['A', 'B', 'C']), data, 'C');
    expect(plan).toEqual({ runData: { A: [run(1)] }, startNodes: ['B'] });
    const later = planPartialRun(chain(['A', 'B', 'C', 'D']), { C: [run(5)], B: [run(4)] }, 'D');
    expect(later).toEqual({ runData: { B: [run(4)] }, startNodes: ['A'] });
  });

  it('skips disabled direct parents', () => {
    const graph = chain(['A', 'B']);
    graph.nodes = [node('A', true), node('B')];
    expect(planPartialRun(graph, { X: [run(1)] }, 'B')).toEqual({ runData: undefined, startNodes: ['B'] });
  });
});
