import { describe, expect, it } from 'vitest';
import { appendPage, combineExecutions, combinePages, compareIds, hasMorePast, mergeRefreshed, totalCount } from './merge';
import { currentExecution, pastExecution } from './testExecutions';

const ids = (list: { id: string }[]) => list.map((execution) => execution.id);
const range = (from: number, to: number) => Array.from({ length: from - to + 1 }, (_, i) => pastExecution(String(from - i)));

describe('mergeRefreshed', () => {
  it('adds new executions at the top and keeps loaded pages older than the refreshed range', () => {
    const loaded = range(40, 1);
    const refreshed = range(42, 13);
    const merged = mergeRefreshed(loaded, refreshed, 30);
    expect(ids(merged)).toEqual(ids(range(42, 1)));
  });

  it('takes changed entries from the refresh and drops deleted ones within its range', () => {
    const loaded = [pastExecution('12'), pastExecution('11', { retrySuccessId: null }), pastExecution('10'), pastExecution('2'), pastExecution('1')];
    const refreshed = [pastExecution('12', { finished: true }), pastExecution('11', { retrySuccessId: '12' }), pastExecution('3')];
    const merged = mergeRefreshed(loaded, refreshed, 3);
    expect(ids(merged)).toEqual(['12', '11', '3', '2', '1']);
    expect(merged[0]?.finished).toBe(true);
    expect(merged[1]?.retrySuccessId).toBe('12');
  });

  it('takes a refresh shorter than the limit as the whole list', () => {
    expect(ids(mergeRefreshed(range(20, 1), range(5, 3), 30))).toEqual(['5', '4', '3']);
    expect(mergeRefreshed(range(3, 1), [], 30)).toEqual([]);
  });

  it('orders ids numerically, also past 2^53', () => {
    expect(compareIds('9', '10')).toBeLessThan(0);
    expect(compareIds('9007199254740993', '9007199254740992')).toBeGreaterThan(0);
    expect(ids(mergeRefreshed([], [pastExecution('9'), pastExecution('10')], 30))).toEqual(['10', '9']);
  });
});

describe('appendPage', () => {
  it('appends a next page without repeating listed ids', () => {
    expect(ids(appendPage(range(12, 10), range(10, 8)))).toEqual(['12', '11', '10', '9', '8']);
  });
});

describe('combineExecutions', () => {
  const current = [currentExecution('20'), currentExecution('21')];
  const past = [pastExecution('21', { stoppedAt: null }), pastExecution('19'), pastExecution('18')];

  it('lists current executions first, newest first, and leaves out their past duplicates', () => {
    expect(ids(combineExecutions(current, past, 'ALL'))).toEqual(['21', '20', '19', '18']);
  });

  it('shows only current executions for running and only past ones for the other statuses', () => {
    expect(ids(combineExecutions(current, past, 'running'))).toEqual(['21', '20']);
    expect(ids(combineExecutions(current, past, 'error'))).toEqual(['21', '19', '18']);
  });

  it('counts what the status shows and knows when more can be loaded', () => {
    expect(totalCount(2, 40, 'ALL')).toBe(42);
    expect(totalCount(2, 40, 'running')).toBe(2);
    expect(totalCount(2, 40, 'success')).toBe(40);
    expect(hasMorePast(10, 40, false, 'ALL')).toBe(true);
    expect(hasMorePast(40, 40, false, 'ALL')).toBe(false);
    expect(hasMorePast(40, 40, true, 'ALL')).toBe(true);
    expect(hasMorePast(0, 40, false, 'running')).toBe(false);
  });
});

describe('combinePages', () => {
  const page = (past: ReturnType<typeof range>, limit: number, answer: number, count = 42) => ({ current: [], past, limit, count, estimated: false, answer });

  it('lists the head, then older pages without repeats, with the newest count', () => {
    const listed = combinePages([{ ...page(range(42, 33), 10, 1), current: [currentExecution('43')] }, page(range(33, 24), 10, 2, 41)]);
    expect(ids(listed.current)).toEqual(['43']);
    expect(ids(listed.past)).toEqual(ids(range(42, 24)));
    expect(listed.count).toBe(41);
  });

  it('merges a refreshed head over the older pages and drops them when the head is everything', () => {
    expect(ids(combinePages([page(range(45, 16), 30, 3), page(range(32, 23), 10, 2)]).past)).toEqual(ids(range(45, 16)));
    expect(ids(combinePages([page(range(45, 40), 30, 3), page(range(32, 23), 10, 2)]).past)).toEqual(ids(range(45, 40)));
    expect(combinePages([])).toEqual({ current: [], past: [], count: 0, estimated: false });
  });
});
