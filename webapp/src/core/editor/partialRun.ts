import { incoming, upstreamNodes } from '@/core/workflow/connections';
import type { Graph } from '@/core/workflow/types';
import type { TaskData } from '@/core/push/messages';

/** What a run up to one node sends besides the workflow (n8n's runWorkflow start data). */
export interface PartialRun {
  /** Earlier data the run reuses instead of running those nodes again; undefined runs in full. */
  runData: Record<string, TaskData[]> | undefined;
  startNodes: string[];
}

/**
 * Plans a run up to `destination` that keeps the data the editor already has: for each enabled
 * direct parent, its ancestors and itself are walked; nodes with data are reused (their first
 * run), and the first one without data becomes a start node. With no reusable data the run is a
 * full one; with no start node found the destination itself starts.
 */
export function planPartialRun(graph: Graph, runData: Readonly<Record<string, readonly TaskData[]>> | null, destination: string): PartialRun {
  const startNodes: string[] = [];
  let reused: Record<string, TaskData[]> | undefined;
  if (runData && Object.keys(runData).length > 0) {
    reused = {};
    const parents = [...new Set(incoming(graph.connections, destination).map((connection) => connection.source))];
    for (const parent of parents) {
      if (graph.nodes.find((node) => node.name === parent)?.disabled) continue;
      for (const name of [...upstreamNodes(graph.connections, parent), parent]) {
        const runs = runData[name];
        if (!runs || runs.length === 0) {
          startNodes.push(name);
          break;
        }
        reused[name] = runs.slice(0, 1);
      }
    }
    if (Object.keys(reused).length === 0) reused = undefined;
  }
  if (startNodes.length === 0) startNodes.push(destination);
  return { runData: reused, startNodes };
}
