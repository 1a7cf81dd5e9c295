import { describe, expect, it } from 'vitest';
import type { TaskData } from '@/core/push/messages';
import { edgeItemCount } from './edgeItems';

const run = (extra: Partial<TaskData>): TaskData => ({ startTime: 0, executionTime: 1, source: [], ...extra });

describe('the item count on a connection', () => {
  it('counts the items of the source output in the last run', () => {
    const runs = [run({ data: { main: [[{ json: {} }], [{ json: {} }, { json: {} }]] } })];
    expect(edgeItemCount(runs, 0)).toBe(1);
    expect(edgeItemCount(runs, 1)).toBe(2);
    expect(edgeItemCount([run({ data: { main: [[]] } })], 0)).toBe(0);
  });

  it('shows nothing for a node that did not run or whose last run failed', () => {
    expect(edgeItemCount(undefined, 0)).toBeNull();
    expect(edgeItemCount([], 0)).toBeNull();
    expect(edgeItemCount([run({ error: { message: 'boom' } })], 0)).toBeNull();
    expect(edgeItemCount([run({ data: { main: [[{ json: {} }]] } }), run({ error: { message: 'boom' } })], 0)).toBeNull();
  });
});
