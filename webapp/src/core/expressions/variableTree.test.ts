import { describe, expect, it } from 'vitest';
import type { TaskData } from '@/core/push/messages';
import type { Graph, WorkflowNode } from '@/core/workflow/types';
import { buildVariableTree, dataOption, filterVariables, MAX_INPUT_DATA_LENGTH, type VariableOption } from './variableTree';
import { propertyPath, selectionExpression } from './variablePaths';

function node(name: string, type: string, parameters: WorkflowNode['parameters'] = {}): WorkflowNode {
  return { name, type: `n8n-nodes-base.${type}`, typeVersion: 1, position: [0, 0], parameters };
}

function run(items: Array<{ json: Record<string, unknown>; binary?: Record<string, unknown> }>, outputs = 1, source: TaskData['source'] = []): TaskData {
  const main = Array.from({ length: outputs }, (_, i) => (i === outputs - 1 ? items : null));
  return { startTime: 1, executionTime: 1, source, data: { main } };
}

const graph: Graph = {
  nodes: [
    node('Start', 'start'),
    node('IF', 'if', { conditions: {} }),
    node('Set', 'set', { keepOnlySet: true, values: { string: [{ name: 'a', value: '={{$json.x}}' }] } }),
    node('Note', 'stickyNote', { content: 'hi' }),
    node('Other', 'noOp', { flag: false }),
  ],
  connections: {
    Start: { main: [[{ node: 'IF', type: 'main', index: 0 }]] },
    IF: { main: [[], [{ node: 'Set', type: 'main', index: 0 }]] },
  },
};

const falseBranch = [{ json: { x: 1, 'a b': 'spaced', nested: { deep: { v: true } }, list: [10, { k: 'v' }], none: null, empty: {} }, binary: { file: { data: 'QUJD', mimeType: 'text/plain', fileName: 'a.txt' } } }];
const runData: Record<string, TaskData[]> = { Start: [run([{ json: {} }])], IF: [run(falseBranch, 2)] };

function find(options: readonly VariableOption[], ...names: string[]): VariableOption {
  let list = options;
  let found: VariableOption | undefined;
  for (const name of names) {
    found = list.find((o) => (o.label ?? o.name) === name);
    if (!found) throw new Error(`no ${name} in ${list.map((o) => o.label ?? o.name).join(', ')}`);
    list = found.options ?? [];
  }
  return found as VariableOption;
}

const tree = buildVariableTree({ nodeName: 'Set', graph, runData, path: 'parameters.values.string[0].value', workflow: { id: '7', name: 'Flow', active: false } });

describe('the variable tree', () => {
  it('lists the current node, nodes, workflow, execution, $now and $today', () => {
    expect(tree.map((o) => o.label ?? o.name)).toEqual(['currentNode', 'nodes', 'workflow', 'execution', '$now', '$today']);
    expect(find(tree, 'workflow').options?.map((o) => [o.expression, o.value])).toEqual([
      ['$workflow.id', '7'],
      ['$workflow.name', 'Flow'],
      ['$workflow.active', 'false'],
    ]);
    expect(find(tree, 'execution', 'mode').value).toBe('manual');
    expect(find(tree, 'currentNode', 'itemIndex')).toMatchObject({ expression: '$itemIndex', value: '0' });
  });

  it('reads the input item through the connected branch, with dot paths for identifiers and brackets otherwise', () => {
    const json = find(tree, 'currentNode', 'inputData', 'json');
    expect(json.options?.map((o) => o.expression), 'categories first, then by name').toEqual(['$json.list', '$json.nested', '$json["a b"]', '$json.empty', '$json.none', '$json.x']);
    expect(find(json.options ?? [], 'a b')).toMatchObject({ expression: '$json["a b"]', value: 'spaced' });
    expect(find(json.options ?? [], 'nested', 'deep', 'v')).toMatchObject({ expression: '$json.nested.deep.v', value: 'true' });
    expect(find(json.options ?? [], 'list')).toMatchObject({ dataType: 'array' });
    expect(find(json.options ?? [], 'list', '[Item: 0]')).toMatchObject({ expression: '$json.list[0]', value: '10' });
    expect(find(json.options ?? [], 'list', '[Item: 1]', 'k')).toMatchObject({ expression: '$json.list[1].k', value: 'v' });
    expect(find(json.options ?? [], 'none').value).toBe('[null]');
    expect(find(json.options ?? [], 'empty').value).toBe('{}');
    expect(find(json.options ?? [], 'empty').options).toBeUndefined();
    const binary = find(tree, 'currentNode', 'inputData', 'binary');
    expect(binary.expression).toBe('$binary');
    expect(find(binary.options ?? [], 'file').options?.map((o) => o.expression)).toEqual(['$binary.file.fileName', '$binary.file.mimeType']);
  });

  it('leaves out the parameter being edited and lists the other parameters', () => {
    const params = find(tree, 'currentNode', 'parameters');
    expect(find(params.options ?? [], 'keepOnlySet')).toMatchObject({ expression: '$parameter.keepOnlySet', value: 'true' });
    const values = find(params.options ?? [], 'values', 'string', '[Item: 0]');
    expect(values.options?.map((o) => o.name)).toEqual(['name']);
  });

  it('lists other nodes (upstream first, no sticky notes, none without entries) with parameters and the output read through the connection', () => {
    const nodes = find(tree, 'nodes').options ?? [];
    expect(nodes.map((o) => o.name)).toEqual(['IF', 'Other']);
    expect(find(nodes, 'IF', 'outputData', 'json', 'x').expression).toBe('$node["IF"].json.x');
    expect(find(nodes, 'Other', 'parameters', 'flag').expression).toBe('$node["Other"].parameter.flag');
    expect(() => find(nodes, 'Other', 'outputData')).toThrow();
  });

  it('prefers the source of the node\'s own run', () => {
    const withOwnRun = { ...runData, Set: [run([{ json: {} }], 1, [{ previousNode: 'Start' }])], Start: [run([{ json: { fromStart: 1 } }])] };
    const own = buildVariableTree({ nodeName: 'Set', graph, runData: withOwnRun, path: '', workflow: { id: null, name: '', active: false } });
    expect(find(own, 'currentNode', 'inputData', 'json').options?.map((o) => o.expression)).toEqual(['$json.fromStart']);
    expect(find(own, 'workflow', 'id').value).toBeUndefined();
  });

  it('shows [Data to large] instead of input data of 102,400 characters or more', () => {
    const big = (n: number) => ({ IF: [run([{ json: { s: 'x'.repeat(n) } }], 2)] });
    const overhead = JSON.stringify({ json: { s: '' }, binary: {} }).length;
    const justUnder = buildVariableTree({ nodeName: 'Set', graph, runData: big(MAX_INPUT_DATA_LENGTH - overhead - 1), path: '', workflow: { id: null, name: '', active: false } });
    expect(find(justUnder, 'currentNode', 'inputData', 'json', 's')).toBeDefined();
    const atLimit = buildVariableTree({ nodeName: 'Set', graph, runData: big(MAX_INPUT_DATA_LENGTH - overhead), path: '', workflow: { id: null, name: '', active: false } });
    expect(find(atLimit, 'currentNode', 'inputData').options).toEqual([{ key: 'currentNode>inputData>dataTooLarge', name: 'dataTooLarge', label: 'dataTooLarge' }]);
  });

  it('filters by name, keeping named categories whole and dropping emptied ones', () => {
    const filtered = filterVariables(tree, 'DEEP');
    expect(filtered.map((o) => o.label ?? o.name)).toEqual(['currentNode', 'nodes']);
    expect(find(filtered, 'currentNode', 'inputData', 'json', 'nested', 'deep', 'v').expression).toBe('$json.nested.deep.v');
    expect(find(filterVariables(tree, 'other'), 'nodes', 'Other', 'parameters', 'flag')).toBeDefined();
    expect(filterVariables(tree, 'itemindex').map((o) => o.label)).toEqual(['currentNode']);
    expect(filterVariables(tree, 'nothing-like-this')).toEqual([]);
    expect(filterVariables(tree, '  ')).toEqual(tree);
  });
});

describe('variable paths', () => {
  it('uses dot notation for identifiers and quoted brackets otherwise', () => {
    expect(propertyPath('$json', 'a')).toBe('$json.a');
    expect(propertyPath('$json', '$ok_1')).toBe('$json.$ok_1');
    expect(propertyPath('$json', 'a b')).toBe('$json["a b"]');
    expect(propertyPath('$json', '1st')).toBe('$json["1st"]');
    expect(propertyPath('$json', 'say "hi"')).toBe('$json["say \\"hi\\""]');
  });

  it('offers keys and values of objects, length and values of arrays', () => {
    expect(selectionExpression('$json.o', 'keys', 'object')).toBe("Object.keys($json.o).join(', ')");
    expect(selectionExpression('$json.o', 'values', 'object')).toBe("Object.values($json.o).join(', ')");
    expect(selectionExpression('$json.l', 'values', 'array')).toBe("$json.l.join(', ')");
    expect(selectionExpression('$json.l', 'length', 'array')).toBe('$json.l.length');
    expect(selectionExpression('$json.l', 'raw', 'array')).toBe('$json.l');
  });

  it('leaves out one path however it is written', () => {
    expect(dataOption('p', '$parameter.p', { a: 1, 'b c': 2 }, '$parameter.p.b c')?.options?.map((o) => o.name)).toEqual(['a']);
  });
});
