import { applyChanges, type GraphChange } from './changes';
import {
  PUSH_NODES_OFFSET,
  DUPLICATE_OFFSET_Y,
  STICKY_DEFAULT_HEIGHT,
  STICKY_DEFAULT_WIDTH,
  freePosition,
  outputInsertOffset,
  snapPosition,
} from './canvas';
import { connectionsAmong, downstreamNodes, hasConnection, incoming, listConnections, mainConnection, outgoing } from './connections';
import { uniqueName } from './naming';
import { nodeEndpoints } from './nodeEndpoints';
import { STICKY_NOTE_TYPE, START_NODE_TYPE, defaultParameters, latestVersion, type NodeTypeDescription, type NodeTypeIndex } from './nodeTypes';
import { untouchedStart } from './importRules';
import { renameNodeReferences } from './references';
import { MAIN, type Connection, type Graph, type JsonObject, type Position, type WorkflowNode } from './types';

/** A node type whose maxNodes is reached (spec 001 §5: 'Only {count} node is allowed in a workflow'). */
export interface MaxNodesError {
  kind: 'maxNodes';
  count: number;
  displayName: string;
}

/** Nodes an import left out because their type reached its maximum count. */
export interface SkippedNodes extends MaxNodesError {
  nodes: string[];
}

export type Plan = { ok: true; changes: GraphChange[]; names: string[]; skipped?: SkippedNodes } | { ok: false; error: MaxNodesError };

export interface AddNodeRequest {
  type: NodeTypeDescription;
  /** Where the node goes when it is not attached to a source: a drop point or the last click. */
  position: Position;
  /** Attach to this output of a node. */
  source?: { node: string; outputIndex: number };
  /** Split this connection and put the node in the middle. */
  splitConnection?: Connection;
  /** Makes webhook ids; random in the app, fixed in tests. */
  newId?: () => string;
  /** Parameters set on the new node over the type's defaults (a sticky note's first text). */
  parameters?: JsonObject;
}

function usedNames(graph: Graph): Set<string> {
  return new Set(graph.nodes.map((node) => node.name));
}

function findNode(graph: Graph, name: string): WorkflowNode | undefined {
  return graph.nodes.find((node) => node.name === name);
}

export function maxNodesError(graph: Graph, type: NodeTypeDescription, adding = 1): MaxNodesError | null {
  if (type.maxNodes === undefined) return null;
  const count = graph.nodes.filter((node) => node.type === type.name).length;
  return count + adding > type.maxNodes ? { kind: 'maxNodes', count: type.maxNodes, displayName: type.displayName } : null;
}

/** A fresh node of the type with the given name and position. */
export function createNode(type: NodeTypeDescription, name: string, position: Position, newId?: () => string): WorkflowNode {
  const parameters = defaultParameters(type);
  if (type.name === STICKY_NOTE_TYPE) {
    parameters.width = STICKY_DEFAULT_WIDTH;
    parameters.height = STICKY_DEFAULT_HEIGHT;
  }
  const node: WorkflowNode = { parameters, name, type: type.name, typeVersion: latestVersion(type), position };
  if ((type.webhooks?.length ?? 0) > 0 && newId) {
    node.webhookId = newId();
    // A webhook whose path is a parameter starts with its id as the path, so it is set and unique.
    if (type.webhooks?.some((webhook) => webhook.path.includes('$parameter["path"]'))) node.parameters.path = node.webhookId;
  }
  return node;
}

/**
 * Adds a node of a type (spec 001 §4 node add rules): a unique name, the type's maximum count,
 * placement right of its source (offset per output on multi-output nodes), and, when dropped on a
 * connection, the connection split through it with the nodes after it pushed right.
 */
export function planAddNode(graph: Graph, types: NodeTypeIndex, request: AddNodeRequest): Plan {
  const { type } = request;
  const error = maxNodesError(graph, type);
  if (error) return { ok: false, error };
  const name = uniqueName(type.defaults.name, usedNames(graph));
  const taken = graph.nodes.map((node) => node.position);
  const changes: GraphChange[] = [];
  let position: Position;

  const split = request.splitConnection;
  const sourceName = split?.source ?? request.source?.node;
  const source = sourceName !== undefined ? findNode(graph, sourceName) : undefined;
  if (source) {
    const sourceType = types.forNode(source);
    const outputIndex = split?.sourceIndex ?? request.source?.outputIndex ?? 0;
    const offset = outputInsertOffset(sourceType ? nodeEndpoints(sourceType, source).outputs : 1, outputIndex);
    position = snapPosition([source.position[0] + PUSH_NODES_OFFSET, source.position[1] + offset]);
    if (!split) position = freePosition(taken, position);
  } else {
    position = freePosition(taken, snapPosition(request.position));
  }

  if (split) {
    const target = findNode(graph, split.target);
    if (target && target.position[0] < position[0] + PUSH_NODES_OFFSET) {
      const shift = position[0] + PUSH_NODES_OFFSET - target.position[0];
      const pushed = new Set([split.target, ...downstreamNodes(graph.connections, split.target)]);
      pushed.delete(split.source);
      for (const node of graph.nodes) {
        if (pushed.has(node.name)) changes.push({ kind: 'moveNode', name: node.name, position: [node.position[0] + shift, node.position[1]] });
      }
    }
    changes.push({ kind: 'removeConnection', connection: split });
  }

  const node = createNode(type, name, position, request.newId);
  if (request.parameters) node.parameters = { ...node.parameters, ...request.parameters };
  changes.push({ kind: 'addNode', node });
  const hasInput = type.inputs.length > 0;
  const hasOutput = type.outputs.length > 0;
  if (source && hasInput) {
    const outputIndex = split?.sourceIndex ?? request.source?.outputIndex ?? 0;
    changes.push({ kind: 'addConnection', connection: mainConnection(source.name, outputIndex, name, 0) });
  }
  if (split && hasOutput) {
    changes.push({ kind: 'addConnection', connection: mainConnection(name, 0, split.target, split.targetIndex) });
  }
  return { ok: true, changes, names: [name] };
}

/**
 * Deletes nodes with their connections. A node with exactly one incoming and one outgoing main
 * connection gets its neighbours reconnected; the Start node stays when it is the only one.
 */
export function planDeleteNodes(graph: Graph, names: readonly string[]): GraphChange[] {
  const changes: GraphChange[] = [];
  let current = graph;
  for (const name of names) {
    const node = findNode(current, name);
    if (!node) continue;
    if (node.type === START_NODE_TYPE && current.nodes.filter((n) => n.type === START_NODE_TYPE).length === 1) continue;
    const ins = incoming(current.connections, name);
    const outs = outgoing(current.connections, name);
    const step: GraphChange[] = [...ins, ...outs].map((connection) => ({ kind: 'removeConnection', connection }));
    step.push({ kind: 'removeNode', name });
    const [only_in] = ins;
    const [only_out] = outs;
    if (ins.length === 1 && outs.length === 1 && only_in && only_out && only_in.type === MAIN && only_out.type === MAIN) {
      const bridge = mainConnection(only_in.source, only_in.sourceIndex, only_out.target, only_out.targetIndex);
      if (bridge.source !== bridge.target && !hasConnection(current.connections, bridge)) step.push({ kind: 'addConnection', connection: bridge });
    }
    current = applyChanges(current, step).graph;
    changes.push(...step);
  }
  return changes;
}

/** Adds a connection unless it exists already, or links a node to itself. */
export function planConnect(graph: Graph, connection: Connection): GraphChange[] {
  if (connection.source === connection.target || hasConnection(graph.connections, connection)) return [];
  return [{ kind: 'addConnection', connection }];
}

/** Toggles disabled on each node (sticky notes have no such state). */
export function planToggleDisabled(graph: Graph, names: readonly string[]): GraphChange[] {
  const wanted = new Set(names);
  return graph.nodes
    .filter((node) => wanted.has(node.name) && node.type !== STICKY_NOTE_TYPE)
    .map((node) => ({ kind: 'updateNode', name: node.name, patch: { disabled: node.disabled ? undefined : true } }));
}

/** Renames a node: trimmed, empty means no change, a taken name gets a numeric suffix. */
export function planRename(graph: Graph, from: string, rawTo: string): GraphChange[] {
  const to = rawTo.trim();
  if (to === '' || to === from || !findNode(graph, from)) return [];
  const used = usedNames(graph);
  used.delete(from);
  return [{ kind: 'renameNode', from, to: uniqueName(to, used) }];
}

export interface ImportOptions {
  /** Where the top-left node of the imported set lands. */
  position: Position;
  newId?: () => string;
}

/**
 * Adds a set of nodes and their connections (paste, import, duplicate): names made unique with
 * references renamed, positions moved so the set's top-left corner lands at the given position.
 * A set that brings its own Start replaces the canvas's untouched Start (n8n's rule). Nodes whose
 * type reached its maximum count are left out, as n8n does, with their connections dropped and
 * references to them pointed at the node already there; the rest is still added. With nothing
 * left to add, the plan is refused with the maximum-count error.
 */
export function planImport(graph: Graph, types: NodeTypeIndex, data: Graph, options: ImportOptions): Plan {
  const changes: GraphChange[] = [];
  let base = graph;
  const start = data.nodes.some((node) => node.type === START_NODE_TYPE) ? untouchedStart(graph, types) : undefined;
  if (start) {
    changes.push({ kind: 'removeNode', name: start.name });
    base = applyChanges(graph, changes).graph;
  }
  const used = usedNames(base);
  const renames = new Map<string, string>();
  const references = new Map<string, string>();
  const counts = new Map<string, number>();
  const kept: WorkflowNode[] = [];
  let skipped: SkippedNodes | undefined;
  for (const node of data.nodes) {
    // maxNodes and webhooks belong to the type name: a node of an unknown version counts too.
    const type = types.forNode(node) ?? types.get(node.type);
    const adding = (counts.get(node.type) ?? 0) + 1;
    const error = type ? maxNodesError(base, type, adding) : null;
    if (error) {
      skipped = skipped ?? { ...error, nodes: [] };
      skipped.nodes.push(node.name);
      const existing = base.nodes.find((n) => n.type === node.type);
      if (existing) references.set(node.name, existing.name);
      continue;
    }
    counts.set(node.type, adding);
    const name = uniqueName(node.name, used);
    used.add(name);
    renames.set(node.name, name);
    references.set(node.name, name);
    kept.push(node);
  }
  if (kept.length === 0) return skipped ? { ok: false, error: { kind: skipped.kind, count: skipped.count, displayName: skipped.displayName } } : { ok: true, changes: [], names: [] };
  const minX = Math.min(...kept.map((n) => n.position[0]));
  const minY = Math.min(...kept.map((n) => n.position[1]));
  const [dx, dy] = [options.position[0] - minX, options.position[1] - minY];
  for (const node of kept) {
    let parameters = node.parameters ?? {};
    for (const [from, to] of references) if (from !== to) parameters = renameNodeReferences(parameters, from, to);
    const copy: WorkflowNode = {
      ...node,
      name: renames.get(node.name) ?? node.name,
      parameters,
      position: [node.position[0] + dx, node.position[1] + dy],
    };
    delete copy.id;
    const type = types.forNode(node) ?? types.get(node.type);
    if (copy.webhookId !== undefined || (type?.webhooks?.length ?? 0) > 0) {
      if (options.newId) copy.webhookId = options.newId();
    }
    changes.push({ kind: 'addNode', node: copy });
  }
  for (const connection of listConnections(connectionsAmong(data.connections, new Set(renames.keys())))) {
    const source = renames.get(connection.source);
    const target = renames.get(connection.target);
    if (source === undefined || target === undefined) continue;
    changes.push({ kind: 'addConnection', connection: { ...connection, source, target } });
  }
  return { ok: true, changes, names: [...renames.values()], ...(skipped ? { skipped } : {}) };
}

/** Duplicates nodes 140 px below the originals, with the connections among them. */
export function planDuplicate(graph: Graph, types: NodeTypeIndex, names: readonly string[], newId?: () => string): Plan {
  const wanted = new Set(names);
  const nodes = graph.nodes.filter((node) => wanted.has(node.name));
  if (nodes.length === 0) return { ok: true, changes: [], names: [] };
  const minX = Math.min(...nodes.map((n) => n.position[0]));
  const minY = Math.min(...nodes.map((n) => n.position[1]));
  return planImport(graph, types, { nodes, connections: connectionsAmong(graph.connections, wanted) }, { position: [minX, minY + DUPLICATE_OFFSET_Y], newId });
}

/** The node to connect to when a connection is dropped on a node body: its only input. */
export function dropTargetInput(type: NodeTypeDescription | undefined): number | null {
  return type && type.inputs.length === 1 ? 0 : null;
}
