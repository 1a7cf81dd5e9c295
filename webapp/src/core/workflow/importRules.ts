import { START_NODE_POSITION } from './canvas';
import { listConnections } from './connections';
import { START_NODE_TYPE, STICKY_NOTE_TYPE, defaultParameters, type NodeTypeIndex } from './nodeTypes';
import type { Graph, JsonValue, WorkflowNode } from './types';

/** The fields a fresh Start node has; any other field set means the node was edited. */
const FRESH_FIELDS = new Set(['id', 'name', 'type', 'typeVersion', 'position', 'parameters']);

function sameJson(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  return JSON.stringify(a ?? {}) === JSON.stringify(b ?? {});
}

/**
 * The canvas's Start node when it is the untouched one a new workflow gets: the only node besides
 * sticky notes, with no connection, never moved, renamed or edited. An imported or pasted
 * workflow that brings its own Start replaces it (n8n's rule), so exports can be imported again.
 */
export function untouchedStart(graph: Graph, types: NodeTypeIndex): WorkflowNode | undefined {
  const nodes = graph.nodes.filter((node) => node.type !== STICKY_NOTE_TYPE);
  const [start] = nodes;
  if (nodes.length !== 1 || !start || start.type !== START_NODE_TYPE) return undefined;
  if (listConnections(graph.connections).length > 0) return undefined;
  const type = types.get(start.type, start.typeVersion);
  if (!type || start.name !== type.defaults.name) return undefined;
  if (start.position[0] !== START_NODE_POSITION[0] || start.position[1] !== START_NODE_POSITION[1]) return undefined;
  if (Object.entries(start).some(([key, value]) => value !== undefined && !FRESH_FIELDS.has(key))) return undefined;
  if (!sameJson(start.parameters, defaultParameters(type))) return undefined;
  return start;
}
