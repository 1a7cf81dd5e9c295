import { describe, expect, it } from 'vitest';
import { NodeTypeIndex, storedVersion, type NodeTypeDescription } from './nodeTypes';
import type { WorkflowNode } from './types';

function type(version: number | number[], extra: Partial<NodeTypeDescription> = {}): NodeTypeDescription {
  return { name: 'n8n-nodes-base.set', displayName: 'Set', group: ['input'], version, defaults: { name: 'Set' }, inputs: ['main'], outputs: ['main'], ...extra };
}

describe('node type index', () => {
  it('finds the description covering a version, the latest without one, and answers the same each time', () => {
    const v1 = type([1, 2]);
    const v3 = type(3);
    const index = new NodeTypeIndex([v1, v3]);
    expect(index.get('n8n-nodes-base.set', 2)).toBe(v1);
    expect(index.get('n8n-nodes-base.set', 3)).toBe(v3);
    expect(index.get('n8n-nodes-base.set')).toBe(v3);
    expect(index.get('n8n-nodes-base.set', 2)).toBe(v1);
    expect(index.get('n8n-nodes-base.unknown', 1)).toBeUndefined();
    expect(index.forNode({ name: 'A', type: 'n8n-nodes-base.set', typeVersion: 1, position: [0, 0], parameters: {} })).toBe(v1);
    expect(index.latest()).toEqual([v3]);
  });

  it('has no description for a version the type does not list (a node from a newer n8n)', () => {
    const v1 = type([1, 2]);
    const v3 = type(3);
    const index = new NodeTypeIndex([v3, v1]);
    expect(index.get('n8n-nodes-base.set', 9)).toBeUndefined();
    expect(index.get('n8n-nodes-base.set', 2.5)).toBeUndefined();
    expect(index.forNode({ name: 'A', type: 'n8n-nodes-base.set', typeVersion: 3.4, position: [0, 0], parameters: {} })).toBeUndefined();
    expect(index.versions('n8n-nodes-base.set')).toEqual([1, 2, 3]);
    expect(index.versions('n8n-nodes-base.unknown')).toEqual([]);
  });

  it('reads a node without a typeVersion as version 1', () => {
    const v1 = type(1);
    const v2 = type(2);
    const index = new NodeTypeIndex([v1, v2]);
    const bare = { name: 'A', type: 'n8n-nodes-base.set', position: [0, 0], parameters: {} } as unknown as WorkflowNode;
    expect(index.forNode(bare)).toBe(v1);
    expect(storedVersion(bare)).toBe(1);
    expect(storedVersion({ typeVersion: 2.1 })).toBe(2.1);
  });
});
