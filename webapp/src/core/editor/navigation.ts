import { downstreamNodes, incoming, outgoing, upstreamNodes } from '@/core/workflow/connections';
import type { Graph, WorkflowNode } from '@/core/workflow/types';

export type ArrowKey = 'ArrowLeft' | 'ArrowRight' | 'ArrowUp' | 'ArrowDown';

function byName(graph: Graph, name: string): WorkflowNode | undefined {
  return graph.nodes.find((node) => node.name === name);
}

function topmost(graph: Graph, names: string[]): string | undefined {
  const nodes = names.map((name) => byName(graph, name)).filter((node): node is WorkflowNode => node !== undefined);
  nodes.sort((a, b) => a.position[1] - b.position[1] || a.position[0] - b.position[0]);
  return nodes[0]?.name;
}

/**
 * Where the arrow keys move the selection from a node (spec 001 §2): right to its first child,
 * left to its first parent, up and down to the sibling above or below among the children of its
 * parent (ordered by vertical position). Null when there is nowhere to go.
 */
export function arrowTarget(graph: Graph, from: string, key: ArrowKey): string | null {
  if (key === 'ArrowRight') return topmost(graph, outgoing(graph.connections, from).map((c) => c.target)) ?? null;
  if (key === 'ArrowLeft') return topmost(graph, incoming(graph.connections, from).map((c) => c.source)) ?? null;
  const parent = incoming(graph.connections, from)[0]?.source;
  if (parent === undefined) return null;
  const siblings = [...new Set(outgoing(graph.connections, parent).map((c) => c.target))]
    .map((name) => byName(graph, name))
    .filter((node): node is WorkflowNode => node !== undefined)
    .sort((a, b) => a.position[1] - b.position[1]);
  const index = siblings.findIndex((node) => node.name === from);
  const next = siblings[key === 'ArrowUp' ? index - 1 : index + 1];
  return next?.name ?? null;
}

/** Shift+Right selects the node and everything downstream; Shift+Left everything upstream. */
export function extendedSelection(graph: Graph, from: string, direction: 'downstream' | 'upstream'): string[] {
  const others = direction === 'downstream' ? downstreamNodes(graph.connections, from) : upstreamNodes(graph.connections, from);
  return [from, ...others];
}
