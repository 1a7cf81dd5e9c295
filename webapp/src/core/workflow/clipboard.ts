import { connectionsAmong } from './connections';
import type { Connections, Graph, JsonObject, WorkflowNode } from './types';

/**
 * A node as it is saved and copied (spec 001 §5): fields starting with an underscore dropped;
 * disabled, continueOnFail and notes only when set.
 */
export function nodeForSave(node: WorkflowNode): WorkflowNode {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith('_') || value === undefined) continue;
    if ((key === 'disabled' || key === 'continueOnFail') && value !== true) continue;
    if (key === 'notes' && (typeof value !== 'string' || value === '')) continue;
    out[key] = value;
  }
  return out as unknown as WorkflowNode;
}

/** The copy format: `{nodes, connections}` of the chosen nodes as JSON with 2-space indentation. */
export function clipboardJson(graph: Graph, names: readonly string[]): string {
  const wanted = new Set(names);
  const nodes = graph.nodes.filter((node) => wanted.has(node.name)).map(nodeForSave);
  return JSON.stringify({ nodes, connections: connectionsAmong(graph.connections, wanted) }, null, 2);
}

const WORKFLOW_URL = /^https?:\/\/\S+\.json$/i;

/** Import from URL and pasted links: an http(s) address ending in .json. */
export function isWorkflowUrl(text: string): boolean {
  return WORKFLOW_URL.test(text.trim());
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isNode(value: unknown): value is WorkflowNode {
  if (!isRecord(value)) return false;
  const position = value.position;
  return (
    typeof value.name === 'string' &&
    typeof value.type === 'string' &&
    Array.isArray(position) &&
    position.length === 2 &&
    typeof position[0] === 'number' &&
    typeof position[1] === 'number'
  );
}

/**
 * Reads workflow data from imported or pasted text: JSON with a nodes list and a connections map
 * (both needed). Returns null for anything else, which callers ignore or report.
 */
export function parseWorkflowData(text: string): Graph | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  return workflowDataOf(parsed);
}

/** The graph part of an already parsed value, or null when nodes or connections are missing. */
export function workflowDataOf(value: unknown): Graph | null {
  if (!isRecord(value) || !Array.isArray(value.nodes) || !isRecord(value.connections)) return null;
  if (!value.nodes.every(isNode)) return null;
  const nodes = (value.nodes as WorkflowNode[]).map((node) => ({
    ...node,
    parameters: isRecord(node.parameters) ? (node.parameters as JsonObject) : {},
    typeVersion: typeof node.typeVersion === 'number' ? node.typeVersion : 1,
  }));
  return { nodes, connections: value.connections as Connections };
}
