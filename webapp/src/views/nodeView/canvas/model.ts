import type { Dimensions, Edge, Node, NodeChange, XYPosition } from '@xyflow/react';
import { edgeItemCount } from '@/core/runData/edgeItems';
import { nodeRunStatus, type ExecutionState } from '@/core/editor/execution';
import { listConnections } from '@/core/workflow/connections';
import { NODE_SIZE, STICKY_DEFAULT_HEIGHT, STICKY_DEFAULT_WIDTH } from '@/core/workflow/canvas';
import { isTriggerType, STICKY_NOTE_TYPE, type NodeTypeDescription, type NodeTypeIndex } from '@/core/workflow/nodeTypes';
import { nodeEndpoints } from '@/core/workflow/nodeEndpoints';
import { evaluateSubtitle } from '@/core/workflow/subtitle';
import { issueKey, parameterValues, unknownTypeIssue, type NodeIssue } from '@/core/workflow/nodeIssues';
import type { Connection, Graph, WorkflowNode } from '@/core/workflow/types';

const NO_ISSUES: ReadonlyMap<string, NodeIssue[]> = new Map();

/** What a node card draws; JSON only, the callbacks come from the editor context. */
export interface CanvasNodeData extends Record<string, unknown> {
  name: string;
  typeName: string;
  typeVersion: number;
  disabled: boolean;
  subtitle: string | null;
  trigger: boolean;
  inputs: number;
  outputs: number;
  outputNames: string[];
  connectedOutputs: boolean[];
  executing: boolean;
  success: boolean;
  itemCount: number;
  waiting: boolean;
  issues: string[];
  /** The type's event description while a run waits for this trigger (shown after a delay). */
  eventHint: string | null;
}

export interface StickyNodeData extends Record<string, unknown> {
  name: string;
  content: string;
  width: number;
  height: number;
}

export interface CanvasEdgeData extends Record<string, unknown> {
  connection: Connection;
  /** Items the source sent on this output in the last run; null before any run. */
  items: number | null;
}

export type CanvasNode = Node<CanvasNodeData, 'canvasNode'> | Node<StickyNodeData, 'stickyNote'>;
export type CanvasEdge = Edge<CanvasEdgeData, 'canvasEdge'>;

export function edgeId(c: Connection): string {
  return `${c.source}\u0000${c.sourceIndex}\u0000${c.target}\u0000${c.targetIndex}`;
}

function numberParam(node: WorkflowNode, key: string, fallback: number): number {
  const value = node.parameters[key];
  return typeof value === 'number' && value > 0 ? value : fallback;
}

/**
 * The notes when shown in the flow, else the type's subtitle evaluated against the parameters
 * (with defaults from the full description, so it waits for that to load).
 */
function subtitleOf(node: WorkflowNode, subtitle: string | undefined, detail: NodeTypeDescription | undefined): string | null {
  if (node.notesInFlow && node.notes) return node.notes;
  if (!subtitle) return null;
  if (!subtitle.startsWith('=')) return subtitle;
  return detail ? evaluateSubtitle(subtitle, parameterValues(node, detail.properties ?? [])) : null;
}

interface Cached {
  key: unknown[];
  node: CanvasNode;
}

function sameKey(a: unknown[], b: unknown[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return sameKey(a, b);
  return false;
}

/**
 * Whether two canvas nodes draw the same: same place, size, stacking, selection and card data
 * (data values are primitives or arrays of primitives). React Flow and the card then keep the
 * old object, so a change that leaves a card as it was (descriptions or credentials arriving,
 * another node's edit) does not redraw it.
 */
export function sameCanvasNode(a: CanvasNode, b: CanvasNode): boolean {
  if (a.id !== b.id || a.type !== b.type || a.selected !== b.selected || a.width !== b.width || a.height !== b.height || a.zIndex !== b.zIndex) return false;
  if (a.position.x !== b.position.x || a.position.y !== b.position.y) return false;
  const aData: Record<string, unknown> = a.data;
  const bData: Record<string, unknown> = b.data;
  const keys = Object.keys(aData);
  return keys.length === Object.keys(bData).length && keys.every((key) => sameValue(aData[key], bData[key]));
}

/**
 * Maps the graph to React Flow nodes and edges. Node objects are reused while their inputs are
 * unchanged, or when what they draw is unchanged, so a change to one node re-renders one card even
 * on workflows of hundreds of nodes.
 */
export class CanvasModel {
  private readonly nodeCache = new Map<string, Cached>();
  private readonly localCache = new Map<string, Cached>();
  private edgeCache = new Map<string, CanvasEdge>();

  /** Edges of the graph; an edge object is reused while its run count is unchanged. */
  edges(graph: Graph, execution: ExecutionState): CanvasEdge[] {
    const list = computeEdges(graph, execution, this.edgeCache);
    this.edgeCache = new Map(list.map((edge) => [edge.id, edge]));
    return list;
  }

  /** The nodes with drag positions and measurements laid over them. */
  withLocal(nodes: CanvasNode[], local: LocalNodeState): CanvasNode[] {
    if (local.positions.size === 0 && local.measured.size === 0) return nodes;
    return nodes.map((node) => {
      const position = local.positions.get(node.id);
      const measured = local.measured.get(node.id);
      if (!position && !measured) return node;
      const key = [node, position, measured];
      const cached = this.localCache.get(node.id);
      if (cached && sameKey(cached.key, key)) return cached.node;
      const merged = { ...node, ...(position ? { position } : {}), ...(measured ? { measured } : {}) } as CanvasNode;
      this.localCache.set(node.id, { key, node: merged });
      return merged;
    });
  }

  nodes(
    graph: Graph,
    index: NodeTypeIndex,
    selected: readonly string[],
    execution: ExecutionState,
    issues: ReadonlyMap<string, NodeIssue[]> = NO_ISSUES,
    details: NodeTypeIndex | null = null,
  ): CanvasNode[] {
    const selectedSet = new Set(selected);
    const connected = new Map<string, Set<number>>();
    const inputsUsed = new Map<string, number>();
    for (const c of listConnections(graph.connections)) {
      const set = connected.get(c.source) ?? new Set<number>();
      set.add(c.sourceIndex);
      connected.set(c.source, set);
      inputsUsed.set(c.target, Math.max(inputsUsed.get(c.target) ?? 0, c.targetIndex + 1));
    }
    const seen = new Set<string>();
    const out = graph.nodes.map((node) => {
      seen.add(node.name);
      const isSelected = selectedSet.has(node.name);
      const status = execution.runData || execution.executing.length > 0 ? nodeRunStatus(execution, node.name) : null;
      const awaiting = execution.status !== 'idle' && !(execution.runData?.[node.name]?.length);
      const outputsKey = [...(connected.get(node.name) ?? [])].sort().join(',');
      const issueKeys = (issues.get(node.name) ?? []).map(issueKey);
      const key = [node, index, details, isSelected, outputsKey, inputsUsed.get(node.name), issueKeys.join('\n'), status?.executing, status?.success, status?.itemCount, status?.error, status?.waiting, awaiting];
      const cached = this.nodeCache.get(node.name);
      if (cached && sameKey(cached.key, key)) return cached.node;
      const built = this.build(node, index, isSelected, connected.get(node.name), inputsUsed.get(node.name) ?? 0, status, issueKeys, details?.forNode(node), awaiting);
      const kept = cached && sameCanvasNode(cached.node, built) ? cached.node : built;
      this.nodeCache.set(node.name, { key, node: kept });
      return kept;
    });
    for (const name of this.nodeCache.keys()) if (!seen.has(name)) this.nodeCache.delete(name);
    return out;
  }

  private build(
    node: WorkflowNode,
    index: NodeTypeIndex,
    selected: boolean,
    connectedOutputs: Set<number> | undefined,
    inputsUsed: number,
    status: ReturnType<typeof nodeRunStatus> | null,
    issueKeys: string[],
    detail: NodeTypeDescription | undefined,
    awaiting = false,
  ): CanvasNode {
    const position = { x: node.position[0], y: node.position[1] };
    if (node.type === STICKY_NOTE_TYPE) {
      const width = numberParam(node, 'width', STICKY_DEFAULT_WIDTH);
      const height = numberParam(node, 'height', STICKY_DEFAULT_HEIGHT);
      const content = typeof node.parameters.content === 'string' ? node.parameters.content : '';
      return {
        id: node.name,
        type: 'stickyNote',
        position,
        selected,
        width,
        height,
        // Smaller notes stack above larger ones; the active note above all (spec 001 §2).
        zIndex: selected ? 1000 : -Math.round((width * height) / 100),
        data: { name: node.name, content, width, height },
      };
    }
    const type = index.forNode(node);
    const issues = [...issueKeys];
    if (!type && !issues.some((key) => key === 'typeUnknown' || key.startsWith('typeVersionUnknown:'))) {
      issues.push(issueKey(unknownTypeIssue(node, index.versions(node.type))));
    }
    if (status?.error) issues.push(issueKey({ kind: 'execution', message: status.error }));
    // Endpoints follow the parameters where the type says so (Switch rules, Merge inputs); a
    // connection on an endpoint the parameters no longer give keeps its handle, so it stays drawn,
    // as does every connection of a node of an unknown type.
    const endpoints = type ? nodeEndpoints(type, node) : null;
    const outputsUsed = Math.max(0, ...[...(connectedOutputs ?? [])].map((i) => i + 1));
    const outputs = endpoints ? Math.max(endpoints.outputs, outputsUsed) : Math.max(1, outputsUsed);
    const inputs = endpoints ? Math.max(endpoints.inputs, inputsUsed) : Math.max(1, inputsUsed);
    return {
      id: node.name,
      type: 'canvasNode',
      position,
      selected,
      width: NODE_SIZE,
      height: NODE_SIZE,
      data: {
        name: node.name,
        typeName: node.type,
        typeVersion: node.typeVersion,
        disabled: node.disabled === true,
        subtitle: subtitleOf(node, type?.subtitle, detail),
        trigger: type ? isTriggerType(type) : false,
        inputs,
        outputs,
        outputNames: outputs > 1 ? (endpoints?.outputNames ?? []) : [],
        connectedOutputs: Array.from({ length: outputs }, (_, i) => connectedOutputs?.has(i) ?? false),
        executing: status?.executing ?? false,
        success: status?.success ?? false,
        itemCount: status?.itemCount ?? 0,
        waiting: status?.waiting ?? false,
        issues,
        eventHint: awaiting && type && isTriggerType(type) && !type.polling && !node.disabled && issues.length === 0 ? (type.eventTriggerDescription ?? null) : null,
      },
    };
  }
}

/** Drag positions and measured sizes React Flow reports, kept until the store takes them. */
export interface LocalNodeState {
  positions: ReadonlyMap<string, XYPosition>;
  measured: ReadonlyMap<string, Dimensions>;
}

export const EMPTY_LOCAL: LocalNodeState = { positions: new Map(), measured: new Map() };

export function applyLocalChanges(state: LocalNodeState, changes: readonly NodeChange[]): LocalNodeState {
  let positions: Map<string, XYPosition> | null = null;
  let measured: Map<string, Dimensions> | null = null;
  for (const change of changes) {
    if (change.type === 'position' && change.position) {
      positions ??= new Map(state.positions);
      positions.set(change.id, change.position);
    } else if (change.type === 'dimensions' && change.dimensions) {
      const old = state.measured.get(change.id);
      if (old && old.width === change.dimensions.width && old.height === change.dimensions.height) continue;
      measured ??= new Map(state.measured);
      measured.set(change.id, change.dimensions);
    }
  }
  if (!positions && !measured) return state;
  return { positions: positions ?? state.positions, measured: measured ?? state.measured };
}

/**
 * The selection after React Flow's select changes. Earlier picks keep their order, so the last
 * node picked stays last (the "last selected node" of F2 and Enter).
 */
export function applySelectionChanges(selected: readonly string[], changes: ReadonlyArray<{ id: string; selected: boolean }>): string[] {
  let next = [...selected];
  for (const change of changes) {
    next = next.filter((name) => name !== change.id);
    if (change.selected) next.push(change.id);
  }
  return next;
}

function computeEdges(graph: Graph, execution: ExecutionState, previous: ReadonlyMap<string, CanvasEdge>): CanvasEdge[] {
  return listConnections(graph.connections).map((connection) => {
    const id = edgeId(connection);
    const items = edgeItemCount(execution.runData?.[connection.source], connection.sourceIndex);
    const old = previous.get(id);
    if (old && old.data?.items === items) return old;
    return {
      id,
      type: 'canvasEdge',
      source: connection.source,
      target: connection.target,
      sourceHandle: `out-${connection.sourceIndex}`,
      targetHandle: `in-${connection.targetIndex}`,
      data: { connection, items },
    };
  });
}
