import { describe, expect, it } from 'vitest';
import { addConnection, mainConnection } from '@/core/workflow/connections';
import type { Connections } from '@/core/workflow/types';
import { testType } from '@/core/workflow/testTypes';
import { connectedOutputs, defaultInputNode, hasInputPanel, inputNodeOptions, resolveInputNode, truncateName } from './inputNodes';

function wire(...links: Array<[string, number, string, number]>): Connections {
  return links.reduce<Connections>((out, [s, so, t, ti]) => addConnection(out, mainConnection(s, so, t, ti)), {});
}

describe('input nodes', () => {
  const connections = wire(['Trigger', 0, 'IF', 0], ['IF', 1, 'Merge', 1], ['Other', 0, 'Merge', 0], ['IF', 0, 'Merge', 1]);

  it('lists upstream nodes nearest first with their distance', () => {
    expect(inputNodeOptions(connections, 'Merge')).toEqual([
      { name: 'Other', distance: 1 },
      { name: 'IF', distance: 1 },
      { name: 'Trigger', distance: 2 },
    ]);
    expect(inputNodeOptions(connections, 'Trigger')).toEqual([]);
  });

  it('defaults to the parent on input 0 and falls back when the choice is no longer upstream', () => {
    expect(defaultInputNode(connections, 'Merge')).toBe('Other');
    expect(defaultInputNode(connections, 'Trigger')).toBeNull();
    expect(resolveInputNode(connections, 'Merge', 'Trigger')).toBe('Trigger');
    expect(resolveInputNode(connections, 'Merge', 'Gone')).toBe('Other');
  });

  it('finds the outputs a parent wires into the node', () => {
    expect(connectedOutputs(connections, 'IF', 'Merge')).toEqual([0, 1]);
    expect(connectedOutputs(connections, 'Trigger', 'Merge')).toEqual([]);
  });

  it('cuts names longer than 30 characters', () => {
    expect(truncateName('Short')).toBe('Short');
    expect(truncateName('A very long node name that goes on and on')).toBe('A very long node name that goe...');
  });
});

describe('input panel', () => {
  it('is left out for triggers and types without inputs', () => {
    expect(hasInputPanel(testType('set'))).toBe(true);
    expect(hasInputPanel(testType('webhook'))).toBe(false);
    expect(hasInputPanel(testType('manualTrigger'))).toBe(false);
    expect(hasInputPanel(testType('start'))).toBe(false);
    expect(hasInputPanel(undefined)).toBe(true);
  });
});
