import type { TaskData } from '@/core/push/messages';

/** One item a node produced: its JSON and, optionally, binary entries by key. */
export type RunItem = NonNullable<NonNullable<TaskData['data']>['main'][number]>[number];

const NO_ITEMS: readonly RunItem[] = [];

/** Number of outputs the run filled (n8n: `data.main.length`). */
export function outputCountOf(run: TaskData | undefined): number {
  return run?.data?.main.length ?? 0;
}

/** Items of one output of a run; the same empty list when there are none. */
export function outputItems(run: TaskData | undefined, output: number): readonly RunItem[] {
  return run?.data?.main[output] ?? NO_ITEMS;
}

/** Item count of a run summed over the outputs. */
export function runItemCount(run: TaskData | undefined, outputs?: readonly number[]): number {
  const indexes = outputs ?? Array.from({ length: outputCountOf(run) }, (_, i) => i);
  return indexes.reduce((sum, output) => sum + outputItems(run, output).length, 0);
}

/**
 * The run to show: the chosen index clamped to the runs there are, the latest when none is
 * chosen (null), and -1 when the node has not run.
 */
export function resolveRunIndex(chosen: number | null, runCount: number): number {
  if (runCount === 0) return -1;
  if (chosen === null) return runCount - 1;
  return Math.max(0, Math.min(chosen, runCount - 1));
}

/** The outputs a pane shows: the given ones, else every output the node type or the run has. */
export function shownOutputs(run: TaskData | undefined, typeOutputs: number, only: readonly number[] | null): number[] {
  if (only && only.length > 0) return [...only];
  const count = Math.max(outputCountOf(run), typeOutputs, 1);
  return Array.from({ length: count }, (_, i) => i);
}
