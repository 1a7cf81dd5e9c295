import { DEFAULT_PAGE_SIZE, type PageSize } from './pagination';

/** How a pane shows its items (spec 001 §2). */
export type DisplayMode = 'table' | 'json' | 'binary';
export type PaneType = 'input' | 'output';

export interface PaneState {
  displayMode: DisplayMode;
  /** 1-based. */
  page: number;
  pageSize: PageSize;
  /** Index into the outputs the pane shows (the branch tab). */
  branch: number;
  /** Whether the items shown last had binary data; null until the pane has seen data. */
  hadBinary: boolean | null;
}

/** View state of the run-data panes of the open node. */
export interface RunDataViewState {
  nodeName: string;
  /** Chosen output run; null shows the latest. */
  outputRun: number | null;
  /** Chosen input run; null shows the latest. */
  inputRun: number | null;
  linked: boolean;
  /** Chosen input node; null uses the default (first parent on input 0). */
  inputNode: string | null;
  panes: Record<PaneType, PaneState>;
}

export type RunDataViewAction =
  | { type: 'selectOutputRun'; run: number }
  | { type: 'selectInputRun'; run: number; canLink: boolean }
  /** Links the runs; from the input pane the output run takes the input run. */
  | { type: 'link'; inputRun?: number }
  /** Unlinks; the input keeps showing the run the output shows. */
  | { type: 'unlink'; outputRun: number }
  | { type: 'selectInputNode'; name: string }
  | { type: 'setDisplayMode'; pane: PaneType; mode: DisplayMode }
  | { type: 'setPage'; pane: PaneType; page: number }
  | { type: 'setPageSize'; pane: PaneType; pageSize: PageSize }
  | { type: 'selectBranch'; pane: PaneType; branch: number }
  | { type: 'binaryPresence'; pane: PaneType; hasBinary: boolean };

function paneState(previous?: PaneState): PaneState {
  return { displayMode: previous?.displayMode ?? 'table', page: 1, pageSize: previous?.pageSize ?? DEFAULT_PAGE_SIZE, branch: 0, hadBinary: null };
}

/**
 * The state when a node opens: latest runs, linked, default input node, first page and branch.
 * Display modes and page sizes carry over from the previous node, as in n8n.
 */
export function initialViewState(nodeName: string, previous?: RunDataViewState): RunDataViewState {
  return {
    nodeName,
    outputRun: null,
    inputRun: null,
    linked: true,
    inputNode: null,
    panes: { input: paneState(previous?.panes.input), output: paneState(previous?.panes.output) },
  };
}

/**
 * Runs can be linked only when both nodes have the same number of runs and more than one, i.e.
 * the highest run indexes are equal and above 0 (spec 001 §4).
 */
export function canLinkRuns(outputRunCount: number, inputRunCount: number): boolean {
  return outputRunCount > 1 && outputRunCount === inputRunCount;
}

/** The input run index to request: while linked and linkable it follows the output run. */
export function inputRunChoice(state: RunDataViewState, linkable: boolean): number | null {
  return state.linked && linkable ? state.outputRun : state.inputRun;
}

/**
 * The display mode after the shown items gained or lost binary data: binary when binary data
 * first appears, back to table when it disappears (spec 001 §4).
 */
export function nextDisplayMode(mode: DisplayMode, hadBinary: boolean | null, hasBinary: boolean): DisplayMode {
  if (hasBinary && hadBinary !== true) return 'binary';
  if (!hasBinary && mode === 'binary') return 'table';
  return mode;
}

function updatePane(state: RunDataViewState, pane: PaneType, patch: Partial<PaneState>): RunDataViewState {
  return { ...state, panes: { ...state.panes, [pane]: { ...state.panes[pane], ...patch } } };
}

function firstPage(state: RunDataViewState, ...panes: PaneType[]): RunDataViewState {
  return panes.reduce((next, pane) => updatePane(next, pane, { page: 1 }), state);
}

export function runDataViewReducer(state: RunDataViewState, action: RunDataViewAction): RunDataViewState {
  switch (action.type) {
    case 'selectOutputRun':
      return firstPage({ ...state, outputRun: action.run }, 'output', ...(state.linked ? (['input'] as const) : []));
    case 'selectInputRun': {
      const followed = state.linked && action.canLink;
      return firstPage({ ...state, inputRun: action.run, outputRun: followed ? action.run : state.outputRun }, 'input', ...(followed ? (['output'] as const) : []));
    }
    case 'link':
      return firstPage({ ...state, linked: true, outputRun: action.inputRun ?? state.outputRun }, 'input', 'output');
    case 'unlink':
      return { ...state, linked: false, inputRun: action.outputRun };
    case 'selectInputNode':
      return updatePane({ ...state, inputNode: action.name, inputRun: null }, 'input', { page: 1, branch: 0, hadBinary: null });
    case 'setDisplayMode':
      return updatePane(state, action.pane, { displayMode: action.mode });
    case 'setPage':
      return updatePane(state, action.pane, { page: Math.max(1, Math.floor(action.page)) });
    case 'setPageSize':
      return updatePane(state, action.pane, { pageSize: action.pageSize, page: 1 });
    case 'selectBranch':
      return updatePane(state, action.pane, { branch: action.branch, page: 1 });
    case 'binaryPresence': {
      const current = state.panes[action.pane];
      const displayMode = nextDisplayMode(current.displayMode, current.hadBinary, action.hasBinary);
      if (displayMode === current.displayMode && current.hadBinary === action.hasBinary) return state;
      return updatePane(state, action.pane, { displayMode, hadBinary: action.hasBinary });
    }
    default:
      return state;
  }
}
