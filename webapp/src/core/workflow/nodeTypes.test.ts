import { describe, expect, it } from 'vitest';
import { NodeTypeIndex, type NodeTypeDescription } from './nodeTypes';

function type(version: number | number[], extra: Partial<NodeTypeDescription> = {}): NodeTypeDescription {
  return { name: 'n8n-nodes-base.set', displayName: 'Set', group: ['input'], version, defaults: { name: 'Set' }, inputs: ['main'], outputs: ['main'], ...extra };
}

describe('node type index', () => {
  it('finds the description covering a version, else the latest, and answers the same each time', () => {
    const v1 = type([1, 2]);
    const v3 = type(3);
    const index = new NodeTypeIndex([v1, v3]);
    expect(index.get('n8n-nodes-base.set', 2)).toBe(v1);
    expect(index.get('n8n-nodes-base.set', 3)).toBe(v3);
    expect(index.get('n8n-nodes-base.set', 9)).toBe(v3);
    expect(index.get('n8n-nodes-base.set')).toBe(v3);
    expect(index.get('n8n-nodes-base.set', 2)).toBe(v1);
    expect(index.get('n8n-nodes-base.unknown', 1)).toBeUndefined();
    expect(index.forNode({ name: 'A', type: 'n8n-nodes-base.set', typeVersion: 1, position: [0, 0], parameters: {} })).toBe(v1);
    expect(index.latest()).toEqual([v3]);
  });
});
