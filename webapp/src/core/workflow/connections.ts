import { MAIN, type Connection, type ConnectionTarget, type Connections } from './types';

/** Every connection of the map, flattened, in source order. */
export function listConnections(connections: Connections): Connection[] {
  const out: Connection[] = [];
  for (const [source, byType] of Object.entries(connections)) {
    for (const [type, outputs] of Object.entries(byType)) {
      outputs.forEach((targets, sourceIndex) => {
        for (const target of targets ?? []) {
          out.push({ source, sourceIndex, target: target.node, targetIndex: target.index, type });
        }
      });
    }
  }
  return out;
}

/** A copy of the record without one key. */
export function withoutKey<T>(record: Record<string, T>, key: string): Record<string, T> {
  return Object.fromEntries(Object.entries(record).filter(([k]) => k !== key));
}

export function sameConnection(a: Connection, b: Connection): boolean {
  return a.source === b.source && a.sourceIndex === b.sourceIndex && a.target === b.target && a.targetIndex === b.targetIndex && a.type === b.type;
}

export function hasConnection(connections: Connections, connection: Connection): boolean {
  const targets = connections[connection.source]?.[connection.type]?.[connection.sourceIndex] ?? [];
  return targets.some((t) => t.node === connection.target && t.index === connection.targetIndex && t.type === connection.type);
}

/** Adds a connection; an existing one is not added twice (spec 001 §3). */
export function addConnection(connections: Connections, connection: Connection): Connections {
  if (hasConnection(connections, connection)) return connections;
  const byType = connections[connection.source] ?? {};
  const outputs = [...(byType[connection.type] ?? [])];
  while (outputs.length <= connection.sourceIndex) outputs.push([]);
  const target: ConnectionTarget = { node: connection.target, type: connection.type, index: connection.targetIndex };
  outputs[connection.sourceIndex] = [...(outputs[connection.sourceIndex] ?? []), target];
  return { ...connections, [connection.source]: { ...byType, [connection.type]: outputs } };
}

export function removeConnection(connections: Connections, connection: Connection): Connections {
  const byType = connections[connection.source];
  const outputs = byType?.[connection.type];
  const targets = outputs?.[connection.sourceIndex];
  if (!byType || !outputs || !targets) return connections;
  const kept = targets.filter((t) => !(t.node === connection.target && t.index === connection.targetIndex && t.type === connection.type));
  if (kept.length === targets.length) return connections;
  const nextOutputs = [...outputs];
  nextOutputs[connection.sourceIndex] = kept;
  // Trailing empty outputs and empty sources are dropped so that removing undoes adding exactly.
  while (nextOutputs.length > 0 && (nextOutputs[nextOutputs.length - 1] ?? []).length === 0) nextOutputs.pop();
  const otherTypes = withoutKey(byType, connection.type);
  const nextByType = nextOutputs.length > 0 ? { ...otherTypes, [connection.type]: nextOutputs } : otherTypes;
  return Object.keys(nextByType).length > 0 ? { ...connections, [connection.source]: nextByType } : withoutKey(connections, connection.source);
}

/** Connections that start or end at the node. */
export function connectionsOf(connections: Connections, name: string): Connection[] {
  return listConnections(connections).filter((c) => c.source === name || c.target === name);
}

export function incoming(connections: Connections, name: string): Connection[] {
  return listConnections(connections).filter((c) => c.target === name);
}

export function outgoing(connections: Connections, name: string): Connection[] {
  const byType = connections[name];
  if (!byType) return [];
  return listConnections({ [name]: byType });
}

/** Renames a node in every source key and target entry. */
export function renameInConnections(connections: Connections, from: string, to: string): Connections {
  const out: Connections = {};
  for (const [source, byType] of Object.entries(connections)) {
    const nextByType: Connections[string] = {};
    for (const [type, outputs] of Object.entries(byType)) {
      nextByType[type] = outputs.map((targets) => (targets ? targets.map((t) => (t.node === from ? { ...t, node: to } : t)) : targets));
    }
    out[source === from ? to : source] = nextByType;
  }
  return out;
}

/** Names of nodes reachable downstream of the node (not including it), breadth first. */
export function downstreamNodes(connections: Connections, name: string): string[] {
  return walk(name, (current) => outgoing(connections, current).map((c) => c.target));
}

/** Names of nodes upstream of the node (not including it), breadth first. */
export function upstreamNodes(connections: Connections, name: string): string[] {
  const all = listConnections(connections);
  return walk(name, (current) => all.filter((c) => c.target === current).map((c) => c.source));
}

function walk(start: string, next: (name: string) => string[]): string[] {
  const seen = new Set<string>([start]);
  const order: string[] = [];
  let frontier = [start];
  while (frontier.length > 0) {
    const following: string[] = [];
    for (const current of frontier) {
      for (const name of next(current)) {
        if (seen.has(name)) continue;
        seen.add(name);
        order.push(name);
        following.push(name);
      }
    }
    frontier = following;
  }
  return order;
}

/** The connections among a set of nodes only, as a map (for copy and duplicate). */
export function connectionsAmong(connections: Connections, names: ReadonlySet<string>): Connections {
  let out: Connections = {};
  for (const c of listConnections(connections)) {
    if (names.has(c.source) && names.has(c.target)) out = addConnection(out, c);
  }
  return out;
}

export function mainConnection(source: string, sourceIndex: number, target: string, targetIndex: number): Connection {
  return { source, sourceIndex, target, targetIndex, type: MAIN };
}
