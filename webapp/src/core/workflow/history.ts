import type { GraphChange } from './changes';

/** One undoable step: the changes as applied and the inverses that undo them, in order. */
export interface HistoryEntry {
  changes: readonly GraphChange[];
  inverses: readonly GraphChange[];
}

export interface History {
  past: readonly HistoryEntry[];
  future: readonly HistoryEntry[];
}

export const EMPTY_HISTORY: History = { past: [], future: [] };
export const HISTORY_LIMIT = 100;

/** Records a new step; it ends the redo branch. */
export function record(history: History, entry: HistoryEntry): History {
  const past = [...history.past, entry];
  return { past: past.length > HISTORY_LIMIT ? past.slice(past.length - HISTORY_LIMIT) : past, future: [] };
}

/** Takes the last step off for undo: apply its inverses. */
export function takeUndo(history: History): { entry: HistoryEntry; history: History } | null {
  const entry = history.past[history.past.length - 1];
  if (!entry) return null;
  return { entry, history: { past: history.past.slice(0, -1), future: [entry, ...history.future] } };
}

/** Takes the next undone step for redo: apply its changes again. */
export function takeRedo(history: History): { entry: HistoryEntry; history: History } | null {
  const [entry, ...future] = history.future;
  if (!entry) return null;
  return { entry, history: { past: [...history.past, entry], future } };
}
