import { describe, expect, it } from 'vitest';
import { deleteRequest, EMPTY_SELECTION, isSelected, pruneSelection, selectedCount, selectionState, toggleAll, toggleRow } from './selection';
import { pastExecution } from './testExecutions';

describe('execution selection', () => {
  it('toggles single rows and counts them', () => {
    let selection = toggleRow(EMPTY_SELECTION, '3', ['3', '2', '1']);
    selection = toggleRow(selection, '1', ['3', '2', '1']);
    expect(selectionState(selection)).toBe('some');
    expect(selectedCount(selection, 50)).toBe(2);
    selection = toggleRow(selection, '3', ['3', '2', '1']);
    expect([...selection.ids]).toEqual(['1']);
  });

  it('selects every past execution with the header, counting the server total, and clears it again', () => {
    const all = toggleAll(toggleRow(EMPTY_SELECTION, '2', ['2']));
    expect(selectionState(all)).toBe('all');
    expect(isSelected(all, 'anything')).toBe(true);
    expect(selectedCount(all, 57)).toBe(57);
    expect(selectionState(toggleAll(all))).toBe('none');
  });

  it('turns "all" into the other listed rows when one row is unticked', () => {
    const selection = toggleRow(toggleAll(EMPTY_SELECTION), '2', ['3', '2', '1']);
    expect(selection.all).toBe(false);
    expect([...selection.ids]).toEqual(['3', '1']);
  });

  it('forgets chosen ids that are no longer listed', () => {
    const selection = toggleRow(toggleRow(EMPTY_SELECTION, '3', []), '9', []);
    expect([...pruneSelection(selection, ['3', '2']).ids]).toEqual(['3']);
    const unchanged = toggleRow(EMPTY_SELECTION, '3', []);
    expect(pruneSelection(unchanged, ['3'])).toBe(unchanged);
  });
});

describe('deleteRequest', () => {
  const past = [pastExecution('12', { startedAt: '2024-05-01T10:00:12.654321Z' }), pastExecution('11')];

  it('sends the chosen ids with the filters', () => {
    const selection = toggleRow(toggleRow(EMPTY_SELECTION, '12', []), '11', []);
    expect(deleteRequest(selection, { workflowId: 'wf1' }, past)).toEqual({ ids: ['12', '11'], filters: { workflowId: 'wf1' } });
  });

  it('sends deleteBefore with the newest listed start, unchanged, and the filters when all are selected', () => {
    expect(deleteRequest(toggleAll(EMPTY_SELECTION), { finished: false }, past)).toEqual({
      deleteBefore: '2024-05-01T10:00:12.654321Z',
      filters: { finished: false },
    });
  });

  it('sends nothing when nothing would be deleted', () => {
    expect(deleteRequest(EMPTY_SELECTION, {}, past)).toBeNull();
    expect(deleteRequest(toggleAll(EMPTY_SELECTION), {}, [])).toBeNull();
  });
});
