import type { TaskData } from '@/core/push/messages';

/**
 * The item count a connection's label shows for the last run of its source node: null (no label)
 * when the node has not run or its last run failed, as n8n shows no count for a failed node.
 */
export function edgeItemCount(runs: readonly TaskData[] | undefined, sourceIndex: number): number | null {
  const last = runs?.[runs.length - 1];
  if (!last || last.error) return null;
  return last.data?.main?.[sourceIndex]?.length ?? 0;
}
