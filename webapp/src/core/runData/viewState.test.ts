import { describe, expect, it } from 'vitest';
import { canLinkRuns, initialViewState, inputRunChoice, nextDisplayMode, runDataViewReducer, type RunDataViewAction, type RunDataViewState } from './viewState';

function apply(state: RunDataViewState, ...actions: RunDataViewAction[]): RunDataViewState {
  return actions.reduce(runDataViewReducer, state);
}

describe('run linking', () => {
  it('allows linking only when both nodes have the same number of runs, more than one', () => {
    expect(canLinkRuns(3, 3)).toBe(true);
    expect(canLinkRuns(2, 2)).toBe(true);
    expect(canLinkRuns(1, 1)).toBe(false);
    expect(canLinkRuns(0, 0)).toBe(false);
    expect(canLinkRuns(3, 2)).toBe(false);
  });

  it('starts linked, and while linked the input run follows the output run', () => {
    const state = apply(initialViewState('B'), { type: 'selectOutputRun', run: 1 });
    expect(state.linked).toBe(true);
    expect(inputRunChoice(state, true)).toBe(1);
    expect(inputRunChoice(state, false)).toBeNull();
  });

  it('copies the output run to the input when unlinking, then lets them differ', () => {
    const state = apply(initialViewState('B'), { type: 'selectOutputRun', run: 2 }, { type: 'unlink', outputRun: 2 }, { type: 'selectOutputRun', run: 0 });
    expect(state.linked).toBe(false);
    expect(inputRunChoice(state, true)).toBe(2);
    expect(state.outputRun).toBe(0);
  });

  it('moves the output run with the input run while linked', () => {
    const linked = apply(initialViewState('B'), { type: 'selectInputRun', run: 1, canLink: true });
    expect(linked.outputRun).toBe(1);
    const notLinkable = apply(initialViewState('B'), { type: 'selectInputRun', run: 1, canLink: false });
    expect(notLinkable.outputRun).toBeNull();
  });

  it('links from the input pane by giving the output the input run', () => {
    const state = apply(initialViewState('B'), { type: 'unlink', outputRun: 0 }, { type: 'selectInputRun', run: 2, canLink: true }, { type: 'link', inputRun: 2 });
    expect(state.linked).toBe(true);
    expect(state.outputRun).toBe(2);
  });

  it('resets runs, link and input selection for another node but keeps display modes and page sizes', () => {
    const used = apply(
      initialViewState('A'),
      { type: 'unlink', outputRun: 1 },
      { type: 'selectInputNode', name: 'X' },
      { type: 'setDisplayMode', pane: 'output', mode: 'json' },
      { type: 'setPageSize', pane: 'input', pageSize: 50 },
      { type: 'setPage', pane: 'input', page: 3 },
    );
    const next = initialViewState('B', used);
    expect(next).toMatchObject({ nodeName: 'B', linked: true, outputRun: null, inputRun: null, inputNode: null });
    expect(next.panes.output.displayMode).toBe('json');
    expect(next.panes.input).toMatchObject({ pageSize: 50, page: 1, hadBinary: null });
  });
});

describe('display mode switching', () => {
  it('switches to binary when binary data first appears and back to table when it goes', () => {
    expect(nextDisplayMode('table', null, true)).toBe('binary');
    expect(nextDisplayMode('json', false, true)).toBe('binary');
    expect(nextDisplayMode('json', true, true)).toBe('json');
    expect(nextDisplayMode('binary', true, false)).toBe('table');
    expect(nextDisplayMode('json', true, false)).toBe('json');
  });

  it('lets the user leave binary mode while binary data stays', () => {
    let state = apply(initialViewState('A'), { type: 'binaryPresence', pane: 'output', hasBinary: true });
    expect(state.panes.output.displayMode).toBe('binary');
    state = apply(state, { type: 'setDisplayMode', pane: 'output', mode: 'table' }, { type: 'binaryPresence', pane: 'output', hasBinary: true });
    expect(state.panes.output.displayMode).toBe('table');
  });

  it('goes back to the first page when the page size, branch or run changes', () => {
    const paged = apply(initialViewState('A'), { type: 'setPage', pane: 'output', page: 4 });
    expect(apply(paged, { type: 'setPageSize', pane: 'output', pageSize: 'all' }).panes.output.page).toBe(1);
    expect(apply(paged, { type: 'selectBranch', pane: 'output', branch: 1 }).panes.output.page).toBe(1);
    expect(apply(paged, { type: 'selectOutputRun', run: 0 }).panes.output.page).toBe(1);
  });
});
