import { describe, expect, it } from 'vitest';
import { applyParameterChange } from '@/core/parameters';
import type { Graph, WorkflowNode } from '@/core/workflow/types';
import { completionDataFor } from './completionData';
import { completionsAt, openSegmentStart, type CompletionData } from './completions';
import { CODE_NODE_EXAMPLES, codeForMode, followingChange } from './defaultCode';

const data: CompletionData = {
  inputFields: ['id', 'name', 'full name', 'score'],
  nodeNames: ['Start', 'Fetch Users'],
  nodeFields: { 'Fetch Users': ['email', 'age'] },
};

function labels(before: string): string[] | null {
  return completionsAt(before, data)?.options.map((o) => o.label) ?? null;
}

describe('completionsAt', () => {
  it('offers the root variables after $, filtered by what is typed', () => {
    expect(labels('const a = $')).toEqual(expect.arrayContaining(['$json', '$input', '$node', '$()', '$items()', '$now', '$today']));
    expect(labels('return $in')).toEqual(['$input']);
    expect(completionsAt('return $in', data)?.from).toBe(7);
    expect(labels('foo.$')).toBeNull();
  });

  it("offers the input's field names in their order after $json. and on an input item", () => {
    expect(labels('$json.')).toEqual(['id', 'name', 'full name', 'score']);
    expect(labels('x = $json.sc')).toEqual(['score']);
    expect(labels('$input.item.json.')).toEqual(['id', 'name', 'full name', 'score']);
    expect(labels('$input.first().json.na')).toEqual(['name']);
    expect(labels('$input.all()[2].json.i')).toEqual(['id']);
    // A name that is no identifier goes in brackets.
    expect(completionsAt('$json.f', data)?.options[0]).toMatchObject({ label: 'full name', apply: '["full name"]' });
    expect(completionsAt('$json["f', data)?.options[0]).toMatchObject({ label: 'full name', apply: 'full name"]' });
  });

  it('offers the members of $input and of an item', () => {
    expect(labels('$input.')).toEqual(['all()', 'first()', 'last()', 'item', 'params', 'context']);
    expect(labels('$input.f')).toEqual(['first()']);
    expect(labels('$input.last().')).toEqual(['json', 'binary']);
  });

  it('offers node names inside $node[" and $(" and closes the reference', () => {
    expect(completionsAt('$node["', data)?.options.map((o) => o.apply)).toEqual(['Start"]', 'Fetch Users"]']);
    expect(completionsAt("$('Fe", data)?.options.map((o) => o.apply)).toEqual(["Fetch Users')"]);
    expect(labels('$items("S')).toEqual(['Start']);
  });

  it("offers another node's members and output fields", () => {
    expect(labels('$("Fetch Users").')).toContain('first()');
    expect(labels('$node["Fetch Users"].json.')).toEqual(['email', 'age']);
    expect(labels('$("Fetch Users").item.json.a')).toEqual(['age']);
    expect(labels('$("Fetch Users").first().')).toEqual(['json', 'binary']);
  });

  it('offers Luxon members on $now and $today', () => {
    expect(labels('$now.to')).toEqual(expect.arrayContaining(['toISO()', 'toFormat()', 'toMillis()']));
    expect(labels('$today.plu')).toEqual(['plus()']);
    expect(labels('$today.year')).toEqual(['year']);
  });

  it('offers nothing in plain code', () => {
    expect(labels('const total = ')).toBeNull();
    expect(labels('$json.zzz')).toBeNull();
  });
});

describe('openSegmentStart', () => {
  it('finds the open {{ }} segment before the cursor', () => {
    expect(openSegmentStart('Hi {{ $js')).toBe(5);
    expect(openSegmentStart('Hi {{ $json.a }} $')).toBeNull();
    expect(openSegmentStart('plain')).toBeNull();
  });
});

describe('completionDataFor', () => {
  const graph: Graph = {
    nodes: [
      { name: 'Start', type: 'n8n-nodes-base.start', typeVersion: 1, position: [0, 0], parameters: {} },
      { name: 'Code', type: 'n8n-nodes-base.code', typeVersion: 1, position: [200, 0], parameters: {} },
      { name: 'Note', type: 'n8n-nodes-base.stickyNote', typeVersion: 1, position: [0, 300], parameters: {} },
      { name: 'Other', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [0, 500], parameters: {} },
      { name: 'Set', type: 'n8n-nodes-base.set', typeVersion: 1, position: [400, 0], parameters: {} },
    ],
    connections: {
      Start: { main: [[{ node: 'Code', type: 'main', index: 0 }]] },
      Code: { main: [[{ node: 'Set', type: 'main', index: 0 }]] },
    },
  } as Graph;

  it('reads the field names of the input item in their order, upstream nodes first, no sticky notes', () => {
    const runData = { Code: [{ startTime: 0, executionTime: 1, data: { main: [[{ json: { zeta: 1, alpha: 2, mid: { x: 1 } } }]] }, source: [{ previousNode: 'Start' }] }] };
    const out = completionDataFor(graph, runData as never, 'Set');
    expect(out.inputFields).toEqual(['zeta', 'alpha', 'mid']);
    expect(out.nodeNames).toEqual(['Code', 'Start', 'Other']);
    expect(out.nodeFields).toEqual({ Code: ['zeta', 'alpha', 'mid'] });
  });

  it('has no fields before a run', () => {
    expect(completionDataFor(graph, null, 'Set').inputFields).toEqual([]);
  });
});

describe("the Code node's example code", () => {
  const node = (jsCode?: string): WorkflowNode => ({ name: 'Code', type: 'n8n-nodes-base.code', typeVersion: 1, position: [0, 0], parameters: jsCode === undefined ? {} : { jsCode } });

  it('swaps an untouched example when the mode changes and keeps edited code', () => {
    expect(codeForMode(CODE_NODE_EXAMPLES.runOnceForAllItems, 'runOnceForEachItem')).toBe(CODE_NODE_EXAMPLES.runOnceForEachItem);
    expect(codeForMode(CODE_NODE_EXAMPLES.runOnceForEachItem, 'runOnceForAllItems')).toBe(CODE_NODE_EXAMPLES.runOnceForAllItems);
    expect(codeForMode('return [];', 'runOnceForEachItem')).toBeUndefined();
    expect(followingChange(node(), { path: 'parameters.mode', value: 'runOnceForEachItem' })).toEqual({ path: 'parameters.jsCode', value: CODE_NODE_EXAMPLES.runOnceForEachItem });
    expect(followingChange(node('return [];'), { path: 'parameters.mode', value: 'runOnceForEachItem' })).toBeNull();
    expect(followingChange(node(), { path: 'parameters.jsCode', value: 'x' })).toBeNull();
    expect(followingChange({ ...node(), type: 'n8n-nodes-base.set' }, { path: 'parameters.mode', value: 'runOnceForEachItem' })).toBeNull();
  });

  it('stores the per-item example, which is no default', () => {
    const change = followingChange(node(), { path: 'parameters.mode', value: 'runOnceForEachItem' });
    expect(change).not.toBeNull();
    if (change) expect(applyParameterChange(node(), undefined, change).parameters?.jsCode).toBe(CODE_NODE_EXAMPLES.runOnceForEachItem);
  });
});
