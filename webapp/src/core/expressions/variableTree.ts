import { listConnections, upstreamNodes } from '@/core/workflow/connections';
import type { TaskData } from '@/core/push/messages';
import { STICKY_NOTE_TYPE } from '@/core/workflow/nodeTypes';
import type { Graph, WorkflowNode } from '@/core/workflow/types';
import { indexPath, nodePath, propertyPath } from './variablePaths';

/** Entries whose text the view translates instead of showing `name`. */
export type VariableLabel =
  | 'currentNode'
  | 'inputData'
  | 'parameters'
  | 'nodes'
  | 'outputData'
  | 'json'
  | 'binary'
  | 'itemIndex'
  | 'runIndex'
  | 'workflow'
  | 'execution'
  | 'dataTooLarge';

/** One entry of the variable selector: a category with options, or a value to insert. */
export interface VariableOption {
  /** Unique in the tree: the expression, or the path of labels and names to a category. */
  key: string;
  /** A property, node or parameter name; `label` replaces it when set. */
  name: string;
  label?: VariableLabel;
  /** What selecting the entry inserts (without braces); categories of data have one too. */
  expression?: string;
  /** A leaf's value as text; undefined shows as empty. */
  value?: string;
  /** Set on object and array entries, which offer keys, values or length. */
  dataType?: 'object' | 'array';
  options?: VariableOption[];
}

/** Input data whose JSON is this long or longer is not listed (spec 001 §9). */
export const MAX_INPUT_DATA_LENGTH = 102400;
/** What $execution.id and $execution.resumeUrl show outside a run. */
export const EXECUTION_PLACEHOLDER = '[filled at execution time]';


export interface VariableTreeInput {
  nodeName: string;
  graph: Graph;
  runData: Readonly<Record<string, readonly TaskData[]>> | null;
  /** The parameter being edited (`parameters.values.string[0].value`); it is left out. */
  path: string;
  workflow: { id: string | null; name: string; active: boolean };
  itemIndex?: number;
  runIndex?: number;
}

/** One item of run data. */
interface Item {
  json: Record<string, unknown>;
  binary?: Record<string, unknown>;
}

function valueText(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (value === null) return '[null]';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Categories first, then by name, as n8n lists them. */
function sortOptions(options: VariableOption[]): VariableOption[] {
  return [...options].sort((a, b) => {
    const aHas = a.options !== undefined;
    const bHas = b.options !== undefined;
    if (aHas !== bHas) return aHas ? -1 : 1;
    return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
  });
}

/** Normalises `a["b"]` to `a.b` so paths written either way compare equal. */
function normalizePath(path: string): string {
  return path.replace(/\["((?:[^"\\]|\\.)*)"\]/g, (_, name: string) => `.${JSON.parse(`"${name}"`) as string}`);
}

/** The entry for a value at `path`: objects and arrays become categories of their members. */
export function dataOption(name: string, path: string, value: unknown, skip?: string): VariableOption | null {
  if (skip !== undefined && normalizePath(path) === skip) return null;
  if (Array.isArray(value) && value.length > 0) {
    const options = value.map((element, i) => dataOption(`[Item: ${i}]`, indexPath(path, i), element, skip)).filter((o) => o !== null);
    return { key: path, name, expression: path, dataType: 'array', options };
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length > 0) {
    return { key: path, name, expression: path, dataType: 'object', options: membersOf(value as Record<string, unknown>, path, skip) };
  }
  return { key: path, name, expression: path, value: valueText(value) };
}

function membersOf(object: Record<string, unknown>, path: string, skip?: string): VariableOption[] {
  const options = Object.entries(object)
    .map(([name, value]) => dataOption(name, propertyPath(path, name), value, skip))
    .filter((o) => o !== null);
  return sortOptions(options);
}

function category(parentKey: string, label: VariableLabel, options: VariableOption[]): VariableOption {
  return { key: `${parentKey}>${label}`, name: label, label, options };
}

/** JSON and Binary entries of one item; `[Data to large]` when its JSON is too long. */
function itemOptions(item: Item, jsonPath: string, binaryPath: string, key: string): VariableOption[] {
  const binary: Record<string, Record<string, unknown>> = {};
  for (const [name, entry] of Object.entries(item.binary ?? {})) {
    if (entry !== null && typeof entry === 'object') {
      binary[name] = Object.fromEntries(Object.entries(entry).filter(([key]) => key !== 'data'));
    }
  }
  if (JSON.stringify({ json: item.json, binary }).length >= MAX_INPUT_DATA_LENGTH) {
    return [{ key: `${key}>dataTooLarge`, name: 'dataTooLarge', label: 'dataTooLarge' }];
  }
  const out: VariableOption[] = [category(key, 'json', membersOf(item.json, jsonPath))];
  const binaries = Object.entries(binary).map(([name, meta]): VariableOption => {
    const entryPath = propertyPath(binaryPath, name);
    return { key: entryPath, name, expression: entryPath, options: membersOf(meta, entryPath) };
  });
  if (binaries.length > 0) out.push({ ...category(key, 'binary', sortOptions(binaries)), expression: binaryPath });
  return out;
}

export function outputItem(runData: VariableTreeInput['runData'], node: string, run: number, output: number, itemIndex: number): Item | undefined {
  const runs = runData?.[node];
  if (!runs || runs.length === 0) return undefined;
  return runs[Math.min(run, runs.length - 1)]?.data?.main[output]?.[itemIndex] ?? undefined;
}

/** The item the node reads on input 0: from its own run's source, else through its connections. */
export function inputItem(input: VariableTreeInput, itemIndex: number, runIndex: number): Item | undefined {
  const { nodeName, graph, runData } = input;
  const source = runData?.[nodeName]?.[runIndex]?.source?.[0];
  if (source) return outputItem(runData, source.previousNode, source.previousNodeRun ?? 0, source.previousNodeOutput ?? 0, itemIndex);
  for (const c of listConnections(graph.connections)) {
    if (c.target !== nodeName || c.targetIndex !== 0 || !runData?.[c.source]?.length) continue;
    return outputItem(runData, c.source, runIndex, c.sourceIndex, itemIndex);
  }
  return undefined;
}

/** The output of each ancestor through which the node is reached (first connection in input order). */
function parentOutputs(graph: Graph, nodeName: string): Map<string, number> {
  const all = listConnections(graph.connections).filter((c) => c.type === 'main');
  const outputs = new Map<string, number>();
  const checked = new Set<string>();
  const walk = (name: string) => {
    if (checked.has(name)) return;
    checked.add(name);
    const incoming = all.filter((c) => c.target === name).sort((a, b) => a.targetIndex - b.targetIndex);
    for (const c of incoming) {
      if (!outputs.has(c.source)) outputs.set(c.source, c.sourceIndex);
      walk(c.source);
    }
  };
  walk(nodeName);
  outputs.delete(nodeName);
  return outputs;
}

function parameterOptions(node: WorkflowNode, path: string, skip?: string): VariableOption[] {
  return membersOf(node.parameters, path, skip);
}

/** Removes categories left without options, as n8n's selector does. */
export function withoutEmptyCategories(options: readonly VariableOption[]): VariableOption[] {
  const out: VariableOption[] = [];
  for (const option of options) {
    if (option.options === undefined) {
      out.push(option);
      continue;
    }
    const children = withoutEmptyCategories(option.options);
    if (children.length > 0) out.push({ ...option, options: children });
    else if (option.dataType) out.push({ ...option, options: undefined });
  }
  return out;
}

/**
 * The variable selector's entries for a node (n8n 0.186's VariableSelector): the current node's
 * input item (JSON and binary, unless too large), parameters and indexes; every other node's
 * parameters and, for nodes upstream that ran, the output item through which the node is
 * reached; then $workflow, $execution, $now and $today.
 */
export function buildVariableTree(input: VariableTreeInput): VariableOption[] {
  const { nodeName, graph, runData, workflow } = input;
  const itemIndex = input.itemIndex ?? 0;
  const runIndex = input.runIndex ?? 0;
  const node = graph.nodes.find((n) => n.name === nodeName);
  if (!node) return [];

  const currentKey = 'currentNode';
  const current: VariableOption[] = [];
  const item = inputItem(input, itemIndex, runIndex);
  if (item) current.push(category(currentKey, 'inputData', itemOptions(item, '$json', '$binary', `${currentKey}>inputData`)));
  const skip = input.path.startsWith('parameters.') ? normalizePath(`$parameter${input.path.slice('parameters'.length)}`) : undefined;
  current.push(category(currentKey, 'parameters', parameterOptions(node, '$parameter', skip)));
  current.push({ key: '$itemIndex', name: 'itemIndex', label: 'itemIndex', expression: '$itemIndex', value: String(itemIndex) });
  current.push({ key: '$runIndex', name: 'runIndex', label: 'runIndex', expression: '$runIndex', value: String(runIndex) });

  const upstream = upstreamNodes(graph.connections, nodeName);
  const outputs = parentOutputs(graph, nodeName);
  const others = graph.nodes
    .filter((n) => n.name !== nodeName && n.type !== STICKY_NOTE_TYPE)
    .sort((a, b) => rank(upstream, a.name) - rank(upstream, b.name));
  const nodes = others.map((other): VariableOption => {
    const key = `nodes>${other.name}`;
    const base = nodePath(other.name);
    const options = [category(key, 'parameters', parameterOptions(other, `${base}.parameter`))];
    const output = outputs.get(other.name);
    const data = upstream.includes(other.name) && output !== undefined ? outputItem(runData, other.name, runIndex, output, itemIndex) : undefined;
    if (data) options.push(category(key, 'outputData', itemOptions(data, `${base}.json`, `${base}.binary`, `${key}>outputData`)));
    return { key, name: other.name, options };
  });

  return withoutEmptyCategories([
    { key: currentKey, name: currentKey, label: 'currentNode', options: current },
    { key: 'nodes', name: 'nodes', label: 'nodes', options: nodes },
    {
      key: 'workflow',
      name: 'workflow',
      label: 'workflow',
      options: [
        { key: '$workflow.id', name: 'id', expression: '$workflow.id', value: workflow.id ?? undefined },
        { key: '$workflow.name', name: 'name', expression: '$workflow.name', value: workflow.name },
        { key: '$workflow.active', name: 'active', expression: '$workflow.active', value: String(workflow.active) },
      ],
    },
    {
      key: 'execution',
      name: 'execution',
      label: 'execution',
      options: [
        { key: '$execution.id', name: 'id', expression: '$execution.id', value: EXECUTION_PLACEHOLDER },
        { key: '$execution.mode', name: 'mode', expression: '$execution.mode', value: 'manual' },
        { key: '$execution.resumeUrl', name: 'resumeUrl', expression: '$execution.resumeUrl', value: EXECUTION_PLACEHOLDER },
      ],
    },
    { key: '$now', name: '$now', expression: '$now' },
    { key: '$today', name: '$today', expression: '$today' },
  ]);
}

function rank(upstream: readonly string[], name: string): number {
  const at = upstream.indexOf(name);
  return at < 0 ? upstream.length : at;
}

/**
 * The entries matching a filter (case-insensitive): values whose name contains it (labelled ones:
 * whose expression does), and named categories (nodes, objects) whose name contains it, with all
 * they hold.
 */
export function filterVariables(options: readonly VariableOption[], filter: string): VariableOption[] {
  const text = filter.trim().toLowerCase();
  if (text === '') return [...options];
  const out: VariableOption[] = [];
  for (const option of options) {
    const named = option.label === undefined && option.name.toLowerCase().includes(text);
    if (option.options === undefined) {
      const byExpression = option.label !== undefined && (option.expression ?? '').toLowerCase().includes(text);
      if (named || byExpression) out.push(option);
      continue;
    }
    if (named) {
      out.push(option);
      continue;
    }
    const children = filterVariables(option.options, filter);
    if (children.length > 0) out.push({ ...option, options: children });
  }
  return out;
}
