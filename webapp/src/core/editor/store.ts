import { applyChanges, type GraphChange } from '@/core/workflow/changes';
import { EMPTY_HISTORY, record, takeRedo, takeUndo, type History } from '@/core/workflow/history';
import type { Graph, WorkflowSettings } from '@/core/workflow/types';
import { IDLE_EXECUTION, type ExecutionState } from './execution';

/** The open workflow's identity and header fields. A null id means not saved yet. */
export interface WorkflowMeta {
  id: string | null;
  name: string;
  active: boolean;
  tagIds: readonly string[];
  settings: WorkflowSettings;
}

export interface EditorState {
  meta: WorkflowMeta;
  graph: Graph;
  history: History;
  /** Unsaved changes (spec 001 §4). */
  dirty: boolean;
  /** Selected node names; the last one is the last selected. */
  selected: readonly string[];
  execution: ExecutionState;
  /** When each node's parameters last changed (ms since epoch), for the stale-data warning. */
  parametersChangedAt: Readonly<Record<string, number>>;
}

export const EMPTY_GRAPH: Graph = { nodes: [], connections: {} };

export function initialEditorState(meta: Partial<WorkflowMeta> = {}, graph: Graph = EMPTY_GRAPH): EditorState {
  return {
    meta: { id: null, name: '', active: false, tagIds: [], settings: {}, ...meta },
    graph,
    history: EMPTY_HISTORY,
    dirty: false,
    selected: [],
    execution: IDLE_EXECUTION,
    parametersChangedAt: {},
  };
}

/** Notes the time of parameter edits, following renames and dropping removed nodes. */
function changedAt(previous: Readonly<Record<string, number>>, changes: readonly GraphChange[], now: number): Record<string, number> {
  const out = new Map(Object.entries(previous));
  for (const change of changes) {
    if (change.kind === 'updateNode' && change.patch.parameters !== undefined) out.set(change.name, now);
    if (change.kind === 'removeNode') out.delete(change.name);
    if (change.kind === 'renameNode') {
      const at = out.get(change.from);
      out.delete(change.from);
      if (at !== undefined) out.set(change.to, at);
    }
  }
  return Object.fromEntries(out);
}

function renamedSelection(selected: readonly string[], changes: readonly GraphChange[], graph: Graph): string[] {
  let names = [...selected];
  for (const change of changes) {
    if (change.kind === 'renameNode') names = names.map((name) => (name === change.from ? change.to : name));
  }
  const existing = new Set(graph.nodes.map((node) => node.name));
  return names.filter((name) => existing.has(name));
}

/**
 * The editor's one state container: every graph edit goes through {@link edit} as typed changes,
 * so undo, redo and the unsaved-changes flag share one path. Framework-free; React reads it with
 * useSyncExternalStore.
 */
export class EditorStore {
  private state: EditorState;
  private readonly listeners = new Set<() => void>();

  constructor(state: EditorState = initialEditorState()) {
    this.state = state;
  }

  getState = (): EditorState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private set(next: EditorState): void {
    if (next === this.state) return;
    this.state = next;
    for (const listener of [...this.listeners]) listener();
  }

  /** Replaces the whole workflow (open, new, import into an empty editor); not undoable. */
  load(meta: Partial<WorkflowMeta>, graph: Graph, dirty = false): void {
    this.set({ ...initialEditorState(meta, graph), dirty });
  }

  /**
   * Applies an edit; an empty list does nothing. `select` replaces the selection afterwards.
   * Throws GraphChangeError for an edit that does not fit the graph, leaving state as it was.
   */
  edit(changes: readonly GraphChange[], options: { select?: readonly string[] } = {}): void {
    if (changes.length === 0) return;
    const { graph, inverses } = applyChanges(this.state.graph, changes);
    const selected = options.select ?? renamedSelection(this.state.selected, changes, graph);
    const parametersChangedAt = changedAt(this.state.parametersChangedAt, changes, Date.now());
    this.set({ ...this.state, graph, selected, dirty: true, parametersChangedAt, history: record(this.state.history, { changes, inverses }) });
  }

  undo(): boolean {
    const taken = takeUndo(this.state.history);
    if (!taken) return false;
    const { graph } = applyChanges(this.state.graph, taken.entry.inverses);
    const parametersChangedAt = changedAt(this.state.parametersChangedAt, taken.entry.inverses, Date.now());
    this.set({ ...this.state, graph, parametersChangedAt, history: taken.history, dirty: true, selected: renamedSelection(this.state.selected, taken.entry.inverses, graph) });
    return true;
  }

  redo(): boolean {
    const taken = takeRedo(this.state.history);
    if (!taken) return false;
    const { graph } = applyChanges(this.state.graph, taken.entry.changes);
    const parametersChangedAt = changedAt(this.state.parametersChangedAt, taken.entry.changes, Date.now());
    this.set({ ...this.state, graph, parametersChangedAt, history: taken.history, dirty: true, selected: renamedSelection(this.state.selected, taken.entry.changes, graph) });
    return true;
  }

  select(names: readonly string[]): void {
    const same = names.length === this.state.selected.length && names.every((name, i) => name === this.state.selected[i]);
    if (!same) this.set({ ...this.state, selected: names });
  }

  /** Header edits (name, tags, settings, active); `dirty` says whether it is an unsaved change. */
  setMeta(patch: Partial<WorkflowMeta>, dirty: boolean): void {
    this.set({ ...this.state, meta: { ...this.state.meta, ...patch }, dirty: dirty || this.state.dirty });
  }

  /** After a save: the server's identity fields, and no unsaved changes. */
  markSaved(patch: Partial<WorkflowMeta>): void {
    this.set({ ...this.state, meta: { ...this.state.meta, ...patch }, dirty: false });
  }

  updateExecution(update: (execution: ExecutionState) => ExecutionState): void {
    const execution = update(this.state.execution);
    if (execution !== this.state.execution) this.set({ ...this.state, execution });
  }
}
