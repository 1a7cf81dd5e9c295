import { describe, expect, it } from 'vitest';
import { applyChange, applyChanges, GraphChangeError, type GraphChange } from './changes';
import { mainConnection } from './connections';
import type { Graph } from './types';

const base: Graph = {
  nodes: [
    { name: 'A', type: 't', typeVersion: 1, position: [0, 0], parameters: {} },
    { name: 'B', type: 't', typeVersion: 1, position: [200, 0], parameters: { x: '=$node["A"]' } },
  ],
  connections: {},
};

describe('graph changes', () => {
  const changes: GraphChange[] = [
    { kind: 'addConnection', connection: mainConnection('A', 0, 'B', 0) },
    { kind: 'moveNode', name: 'B', position: [400, 40] },
    { kind: 'updateNode', name: 'B', patch: { disabled: true } },
    { kind: 'renameNode', from: 'A', to: 'Start' },
    { kind: 'addNode', node: { name: 'C', type: 't', typeVersion: 1, position: [0, 0], parameters: {} } },
    { kind: 'addConnection', connection: mainConnection('B', 0, 'C', 0) },
    { kind: 'removeConnection', connection: mainConnection('B', 0, 'C', 0) },
    { kind: 'removeNode', name: 'C' },
  ];

  it('every change is undone by its inverse', () => {
    const { graph, inverses } = applyChanges(base, changes);
    expect(graph.nodes.map((n) => n.name)).toEqual(['Start', 'B']);
    expect(graph.nodes[1]).toMatchObject({ position: [400, 40], disabled: true, parameters: { x: '=$node["Start"]' } });
    expect(graph.connections).toEqual({ Start: { main: [[{ node: 'B', type: 'main', index: 0 }]] } });
    expect(applyChanges(graph, inverses).graph).toEqual(base);
  });

  it('refuses changes that do not fit the graph', () => {
    expect(() => applyChange(base, { kind: 'removeNode', name: 'Z' })).toThrow(GraphChangeError);
    expect(() => applyChange(base, { kind: 'renameNode', from: 'A', to: 'B' })).toThrow(GraphChangeError);
    const linked = applyChange(base, { kind: 'addConnection', connection: mainConnection('A', 0, 'B', 0) }).graph;
    expect(() => applyChange(linked, { kind: 'addConnection', connection: mainConnection('A', 0, 'B', 0) })).toThrow(GraphChangeError);
    expect(() => applyChange(linked, { kind: 'removeNode', name: 'A' })).toThrow(/still connected/);
  });
});
