import { inputItem, outputItem, type VariableTreeInput } from '@/core/expressions/variableTree';
import { upstreamNodes } from '@/core/workflow/connections';
import { STICKY_NOTE_TYPE } from '@/core/workflow/nodeTypes';
import type { Graph } from '@/core/workflow/types';
import type { CompletionData } from './completions';

/**
 * What completions know about a node: the field names of its first input item (from run data, in
 * the item's key order), the other nodes (upstream ones first) and the output fields of those that ran.
 */
export function completionDataFor(graph: Graph, runData: VariableTreeInput['runData'], nodeName: string): CompletionData {
  const input = inputItem({ nodeName, graph, runData, path: '', workflow: { id: null, name: '', active: false } }, 0, 0);
  const upstream = upstreamNodes(graph.connections, nodeName);
  const others = graph.nodes.filter((n) => n.name !== nodeName && n.type !== STICKY_NOTE_TYPE).map((n) => n.name);
  const rank = (name: string) => {
    const at = upstream.indexOf(name);
    return at < 0 ? upstream.length : at;
  };
  const nodeNames = [...others].sort((a, b) => rank(a) - rank(b));
  const nodeFields: Record<string, string[]> = {};
  for (const name of nodeNames) {
    const item = outputItem(runData, name, 0, 0, 0);
    if (item) nodeFields[name] = Object.keys(item.json ?? {});
  }
  return { inputFields: Object.keys(input?.json ?? {}), nodeNames, nodeFields };
}
