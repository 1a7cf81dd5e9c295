import type { DisplayOptions, NodeProperty, NodeTypeDescription } from './nodeTypes';
import type { JsonValue, WorkflowNode } from './types';

/** A problem that keeps a node from running (spec 001 §4 issue kinds). */
export type NodeIssue =
  | { kind: 'typeUnknown' }
  | { kind: 'parameters'; parameter: string; displayName: string }
  | { kind: 'credentials'; credential: string }
  | { kind: 'execution'; message: string };

function sameValue(a: JsonValue | undefined, b: JsonValue): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Whether displayOptions show a parameter for these parameter values: every `show` key must hold
 * one of its values and no `hide` key may. Keys name sibling parameters (a leading `/` names a
 * top-level one); `@version` matches the node's type version.
 */
export function isDisplayed(options: DisplayOptions | undefined, values: Readonly<Record<string, JsonValue | undefined>>, version: number): boolean {
  if (!options) return true;
  const valueOf = (key: string): JsonValue | undefined => (key === '@version' ? version : values[key.replace(/^\//, '')]);
  for (const [key, allowed] of Object.entries(options.show ?? {})) {
    const value = valueOf(key);
    if (!allowed.some((candidate) => sameValue(value, candidate))) return false;
  }
  for (const [key, hidden] of Object.entries(options.hide ?? {})) {
    const value = valueOf(key);
    if (hidden.some((candidate) => sameValue(value, candidate))) return false;
  }
  return true;
}

/** Top-level parameter values with the type's defaults filled in. */
export function parameterValues(node: WorkflowNode, properties: readonly NodeProperty[]): Record<string, JsonValue | undefined> {
  const values: Record<string, JsonValue | undefined> = {};
  for (const property of properties) values[property.name] = property.default;
  return { ...values, ...node.parameters };
}

function isEmpty(value: JsonValue | undefined): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

const NEVER_REQUIRED = new Set(['notice', 'hidden', 'collection', 'fixedCollection', 'boolean']);

/**
 * The issues of a node against its full type description (with properties): an unknown type,
 * required top-level parameters that are shown but empty, and required credentials that are shown
 * but not set. A disabled node has none.
 */
export function nodeIssues(node: WorkflowNode, type: NodeTypeDescription | undefined): NodeIssue[] {
  if (node.disabled) return [];
  if (!type) return [{ kind: 'typeUnknown' }];
  const properties = type.properties ?? [];
  const values = parameterValues(node, properties);
  const issues: NodeIssue[] = [];
  for (const property of properties) {
    if (!property.required || NEVER_REQUIRED.has(property.type)) continue;
    if (!isDisplayed(property.displayOptions, values, node.typeVersion)) continue;
    if (isEmpty(values[property.name])) issues.push({ kind: 'parameters', parameter: property.name, displayName: property.displayName });
  }
  for (const credential of type.credentials ?? []) {
    if (!credential.required || !isDisplayed(credential.displayOptions, values, node.typeVersion)) continue;
    if (!node.credentials?.[credential.name]) issues.push({ kind: 'credentials', credential: credential.name });
  }
  return issues;
}

/**
 * The issues of every node of a graph, by node name (nodes without issues left out). Types come
 * from the list index; parameter and credential checks need the full descriptions, and are
 * skipped until those are loaded.
 */
export function workflowIssues(
  nodes: readonly WorkflowNode[],
  types: { forNode(node: WorkflowNode): NodeTypeDescription | undefined },
  details: { forNode(node: WorkflowNode): NodeTypeDescription | undefined } | null,
): Map<string, NodeIssue[]> {
  const out = new Map<string, NodeIssue[]>();
  for (const node of nodes) {
    if (node.type === 'n8n-nodes-base.stickyNote') continue;
    const listed = types.forNode(node);
    const issues = !listed ? (node.disabled ? [] : [{ kind: 'typeUnknown' } as const]) : nodeIssues(node, details?.forNode(node) ?? { ...listed, properties: [], credentials: [] });
    if (issues.length > 0) out.set(node.name, issues);
  }
  return out;
}

/** A stable one-line form of an issue, for JSON-only canvas data. */
export function issueKey(issue: NodeIssue): string {
  switch (issue.kind) {
    case 'typeUnknown':
      return 'typeUnknown';
    case 'parameters':
      return `parameters:${issue.displayName}`;
    case 'credentials':
      return `credentials:${issue.credential}`;
    case 'execution':
      return `execution:${issue.message}`;
  }
}

const typeKeys = new WeakMap<readonly WorkflowNode[], string>();

/** The node types a node list uses, as sorted `name@version` lines (memoised per list). */
export function nodeTypeKey(nodes: readonly WorkflowNode[]): string {
  let key = typeKeys.get(nodes);
  if (key === undefined) {
    key = [...new Set(nodes.map((node) => `${node.type}@${node.typeVersion}`))].sort().join('\n');
    typeKeys.set(nodes, key);
  }
  return key;
}
