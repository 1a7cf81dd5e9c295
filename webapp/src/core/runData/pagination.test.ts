import { describe, expect, it } from 'vitest';
import { pageCount, pageRange, pagerEntries } from './pagination';

describe('pagination', () => {
  it('counts pages, with one page for no items and for All', () => {
    expect(pageCount(0, 10)).toBe(1);
    expect(pageCount(10, 10)).toBe(1);
    expect(pageCount(11, 10)).toBe(2);
    expect(pageCount(10000, 25)).toBe(400);
    expect(pageCount(10000, 'all')).toBe(1);
  });

  it('gives the index range of a page, clamping pages past the end', () => {
    expect(pageRange(95, 1, 10)).toEqual({ start: 0, end: 10 });
    expect(pageRange(95, 10, 10)).toEqual({ start: 90, end: 95 });
    expect(pageRange(95, 40, 10)).toEqual({ start: 90, end: 95 });
    expect(pageRange(95, 3, 'all')).toEqual({ start: 0, end: 95 });
  });

  it('shows every page button when five fit', () => {
    expect(pagerEntries(1, 1)).toEqual([1]);
    expect(pagerEntries(2, 5)).toEqual([1, 2, 3, 4, 5]);
  });

  it('shows at most five page buttons around the current page, with gaps', () => {
    expect(pagerEntries(1, 20)).toEqual([1, 2, 3, 4, 'gap', 20]);
    expect(pagerEntries(4, 20)).toEqual([1, 'gap', 3, 4, 5, 'gap', 20]);
    expect(pagerEntries(10, 20)).toEqual([1, 'gap', 9, 10, 11, 'gap', 20]);
    expect(pagerEntries(20, 20)).toEqual([1, 'gap', 17, 18, 19, 20]);
    for (let page = 1; page <= 20; page++) {
      expect(pagerEntries(page, 20).filter((entry) => entry !== 'gap')).toHaveLength(5);
    }
  });
});
