import { incoming, listConnections } from '@/core/workflow/connections';
import { isTriggerType, type NodeTypeDescription } from '@/core/workflow/nodeTypes';
import { MAIN, type Connections } from '@/core/workflow/types';

/** Input selector names are cut at this many characters (spec 001 §9). */
export const INPUT_NAME_MAX_LENGTH = 30;

/** A node the input panel can show: an upstream node and how many connections back it is. */
export interface InputNodeOption {
  name: string;
  distance: number;
}

/** Every node upstream of the node over main connections, nearest first (n8n's parent nodes). */
export function inputNodeOptions(connections: Connections, nodeName: string): InputNodeOption[] {
  const all = listConnections(connections).filter((c) => c.type === MAIN);
  const seen = new Set([nodeName]);
  const out: InputNodeOption[] = [];
  let frontier = [nodeName];
  for (let distance = 1; frontier.length > 0; distance++) {
    const next: string[] = [];
    for (const current of frontier) {
      const parents = all.filter((c) => c.target === current).sort((a, b) => a.targetIndex - b.targetIndex);
      for (const { source } of parents) {
        if (seen.has(source)) continue;
        seen.add(source);
        out.push({ name: source, distance });
        next.push(source);
      }
    }
    frontier = next;
  }
  return out;
}

/** The input shown when none is chosen: the first parent on input 0, else the first parent. */
export function defaultInputNode(connections: Connections, nodeName: string): string | null {
  const parents = incoming(connections, nodeName).filter((c) => c.type === MAIN);
  return (parents.find((c) => c.targetIndex === 0) ?? parents[0])?.source ?? null;
}

/** The chosen input node while it is still upstream, else the default one. */
export function resolveInputNode(connections: Connections, nodeName: string, chosen: string | null): string | null {
  if (chosen !== null && inputNodeOptions(connections, nodeName).some((option) => option.name === chosen)) return chosen;
  return defaultInputNode(connections, nodeName);
}

/** Outputs of `source` wired straight into `target`, ascending; empty when not a direct parent. */
export function connectedOutputs(connections: Connections, source: string, target: string): number[] {
  const outputs = (connections[source]?.[MAIN] ?? []).flatMap((targets, index) => ((targets ?? []).some((t) => t.node === target) ? [index] : []));
  return [...new Set(outputs)].sort((a, b) => a - b);
}

/** Cuts a name to `max` characters followed by "..." (n8n's truncate). */
export function truncateName(name: string, max: number = INPUT_NAME_MAX_LENGTH): string {
  return name.length > max ? `${name.slice(0, max)}...` : name;
}

/** Whether the node details view shows an input panel: not for triggers or types without inputs. */
export function hasInputPanel(type: NodeTypeDescription | undefined): boolean {
  return !type || (!isTriggerType(type) && type.inputs.length > 0);
}
