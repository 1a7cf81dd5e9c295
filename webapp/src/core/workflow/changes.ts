import { addConnection, connectionsOf, hasConnection, removeConnection, renameInConnections, withoutKey } from './connections';
import { renameNodeReferences } from './references';
import type { Connection, Graph, Position, WorkflowNode } from './types';

/**
 * A typed edit of the graph. Every edit the editor makes (canvas, keyboard, paste, undo) is a list
 * of these applied by {@link applyChange}, which also returns the change that undoes it.
 */
export type GraphChange =
  | { kind: 'addNode'; node: WorkflowNode; index?: number }
  /** Removes a node that has no connections left (remove them first). */
  | { kind: 'removeNode'; name: string }
  | { kind: 'moveNode'; name: string; position: Position }
  | { kind: 'renameNode'; from: string; to: string }
  /** Sets (or, with undefined, removes) top-level node fields. */
  | { kind: 'updateNode'; name: string; patch: Partial<WorkflowNode> }
  | { kind: 'addConnection'; connection: Connection }
  | { kind: 'removeConnection'; connection: Connection };

export interface Applied {
  graph: Graph;
  /** Applying it to the new graph gives back the old one. */
  inverse: GraphChange;
}

export class GraphChangeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GraphChangeError';
  }
}

function nodeIndex(graph: Graph, name: string): number {
  const index = graph.nodes.findIndex((node) => node.name === name);
  if (index < 0) throw new GraphChangeError(`Node "${name}" does not exist`);
  return index;
}

function replaceNode(graph: Graph, index: number, node: WorkflowNode): Graph {
  const nodes = [...graph.nodes];
  nodes[index] = node;
  return { ...graph, nodes };
}

/** Applies one change and returns the new graph with the change's inverse. Pure. */
export function applyChange(graph: Graph, change: GraphChange): Applied {
  switch (change.kind) {
    case 'addNode': {
      if (graph.nodes.some((node) => node.name === change.node.name)) throw new GraphChangeError(`Node "${change.node.name}" already exists`);
      const nodes = [...graph.nodes];
      const index = change.index === undefined ? nodes.length : Math.min(change.index, nodes.length);
      nodes.splice(index, 0, change.node);
      return { graph: { ...graph, nodes }, inverse: { kind: 'removeNode', name: change.node.name } };
    }
    case 'removeNode': {
      const index = nodeIndex(graph, change.name);
      if (connectionsOf(graph.connections, change.name).length > 0) throw new GraphChangeError(`Node "${change.name}" is still connected`);
      const node = graph.nodes[index] as WorkflowNode;
      const nodes = graph.nodes.filter((_, i) => i !== index);
      return { graph: { nodes, connections: withoutKey(graph.connections, change.name) }, inverse: { kind: 'addNode', node, index } };
    }
    case 'moveNode': {
      const index = nodeIndex(graph, change.name);
      const node = graph.nodes[index] as WorkflowNode;
      return {
        graph: replaceNode(graph, index, { ...node, position: change.position }),
        inverse: { kind: 'moveNode', name: change.name, position: node.position },
      };
    }
    case 'renameNode': {
      const index = nodeIndex(graph, change.from);
      if (change.from !== change.to && graph.nodes.some((node) => node.name === change.to)) {
        throw new GraphChangeError(`Node "${change.to}" already exists`);
      }
      const nodes = graph.nodes.map((node, i) => {
        const parameters = renameNodeReferences(node.parameters, change.from, change.to);
        if (i === index) return { ...node, name: change.to, parameters };
        return parameters === node.parameters ? node : { ...node, parameters };
      });
      return {
        graph: { nodes, connections: renameInConnections(graph.connections, change.from, change.to) },
        inverse: { kind: 'renameNode', from: change.to, to: change.from },
      };
    }
    case 'updateNode': {
      const index = nodeIndex(graph, change.name);
      const node = graph.nodes[index] as WorkflowNode;
      if ('name' in change.patch) throw new GraphChangeError('Rename nodes with a renameNode change');
      const fields = node as unknown as Record<string, unknown>;
      const previous = Object.fromEntries(Object.keys(change.patch).map((key) => [key, fields[key]])) as Partial<WorkflowNode>;
      const merged = Object.entries({ ...fields, ...change.patch }).filter(([, value]) => value !== undefined);
      return {
        graph: replaceNode(graph, index, Object.fromEntries(merged) as unknown as WorkflowNode),
        inverse: { kind: 'updateNode', name: change.name, patch: previous },
      };
    }
    case 'addConnection': {
      const { connection } = change;
      nodeIndex(graph, connection.source);
      nodeIndex(graph, connection.target);
      if (hasConnection(graph.connections, connection)) throw new GraphChangeError('The connection exists already');
      return { graph: { ...graph, connections: addConnection(graph.connections, connection) }, inverse: { kind: 'removeConnection', connection } };
    }
    case 'removeConnection': {
      if (!hasConnection(graph.connections, change.connection)) throw new GraphChangeError('The connection does not exist');
      return {
        graph: { ...graph, connections: removeConnection(graph.connections, change.connection) },
        inverse: { kind: 'addConnection', connection: change.connection },
      };
    }
  }
}

/** Applies changes in order; the inverses come back in the order that undoes them. */
export function applyChanges(graph: Graph, changes: readonly GraphChange[]): { graph: Graph; inverses: GraphChange[] } {
  let current = graph;
  const inverses: GraphChange[] = [];
  for (const change of changes) {
    const applied = applyChange(current, change);
    current = applied.graph;
    inverses.unshift(applied.inverse);
  }
  return { graph: current, inverses };
}
