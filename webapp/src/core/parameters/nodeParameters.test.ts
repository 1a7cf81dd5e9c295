import { describe, expect, it } from 'vitest';
import { clone, nodeParametersWithDefaults } from './nodeParameters';
import type { NodeTypeDescription } from '@/core/workflow/nodeTypes';

describe('clone', () => {
  it('copies objects and arrays deeply and returns primitives as they are', () => {
    const value = { a: [1, { b: 'c' }] };
    const copy = clone(value);
    expect(copy).toEqual(value);
    expect(copy).not.toBe(value);
    expect(copy.a[1]).not.toBe(value.a[1]);
    for (const primitive of ['text', 0, true, null, undefined]) expect(clone(primitive)).toBe(primitive);
  });
});

describe('parameters with defaults', () => {
  it('gives each node its own copy of object defaults', () => {
    const type: NodeTypeDescription = {
      name: 't',
      displayName: 'T',
      group: [],
      version: 1,
      defaults: { name: 'T' },
      inputs: ['main'],
      outputs: ['main'],
      properties: [
        { name: 'mode', displayName: 'Mode', type: 'string', default: 'a' },
        { name: 'headers', displayName: 'Headers', type: 'json', default: { accept: 'json' } },
      ],
    };
    const first = nodeParametersWithDefaults(type, {}, 1);
    const second = nodeParametersWithDefaults(type, {}, 1);
    expect(first).toEqual({ mode: 'a', headers: { accept: 'json' } });
    expect(first.headers).not.toBe(second.headers);
    expect(first.headers).not.toBe(type.properties?.[1]?.default);
  });
});
