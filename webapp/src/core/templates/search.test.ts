import { describe, expect, it } from 'vitest';
import {
  CAROUSEL_CARD_WIDTH,
  carouselEnds,
  carouselStep,
  isFinished,
  limitNodes,
  newTemplatesSessionId,
  orderCategories,
  parseTemplatesSearch,
  sameSearch,
  searchKey,
  templatesSearchParams,
  toggleCategory,
  visibleCategories,
} from './search';
import type { TemplateNode } from './types';

const node = (name: string): TemplateNode => ({ name, displayName: name });

describe('templates search state and URL', () => {
  it('reads search and comma-separated numeric category ids from the query', () => {
    expect(parseTemplatesSearch(new URLSearchParams('search=sales%20report&categories=3,12'))).toEqual({ search: 'sales report', categories: [3, 12] });
    expect(parseTemplatesSearch(new URLSearchParams(''))).toEqual({ search: '', categories: [] });
  });

  it('drops category ids that are not positive whole numbers, and repeats', () => {
    expect(parseTemplatesSearch(new URLSearchParams('categories=1,x,-2,0,1.5,4,4,%207')).categories).toEqual([1, 4, 7]);
  });

  it('writes only what is set, so the plain page has no query', () => {
    expect(templatesSearchParams({ search: '', categories: [] }).toString()).toBe('');
    expect(templatesSearchParams({ search: 'a b', categories: [] }).toString()).toBe('search=a+b');
    expect(templatesSearchParams({ search: '', categories: [5, 2] }).toString()).toBe('categories=5%2C2');
  });

  it('round-trips through the URL', () => {
    const state = { search: 'invoice & tax', categories: [9, 1] };
    expect(parseTemplatesSearch(templatesSearchParams(state))).toEqual(state);
  });

  it('keys the cache by the text and the sorted categories', () => {
    expect(searchKey({ search: 'x', categories: [3, 1, 2] })).toBe('x|1,2,3');
    expect(sameSearch({ search: 'x', categories: [2, 1] }, { search: 'x', categories: [1, 2] })).toBe(true);
    expect(sameSearch({ search: 'x', categories: [1] }, { search: 'y', categories: [1] })).toBe(false);
  });

  it('toggles categories, and All clears them', () => {
    expect(toggleCategory([], 3)).toEqual([3]);
    expect(toggleCategory([3, 4], 3)).toEqual([4]);
    expect(toggleCategory([3, 4], null)).toEqual([]);
  });
});

describe('category filter', () => {
  const categories = Array.from({ length: 15 }, (_, i) => ({ id: i + 1, name: `C${i + 1}` }));

  it('puts the categories preselected from the URL first', () => {
    expect(orderCategories(categories, [14, 2]).slice(0, 3).map((c) => c.id)).toEqual([2, 14, 1]);
    expect(orderCategories(categories, [])).toEqual(categories);
  });

  it('shows 12 and then a + N more expander', () => {
    expect(visibleCategories(categories, false)).toEqual({ shown: categories.slice(0, 12), more: 3 });
    expect(visibleCategories(categories, true)).toEqual({ shown: categories, more: 0 });
    expect(visibleCategories(categories.slice(0, 12), false).more).toBe(0);
  });
});

describe('lists and carousel', () => {
  it('shows at most five node icons, the fifth place holding +N', () => {
    const five = ['a', 'b', 'c', 'd', 'e'].map(node);
    expect(limitNodes(five, 5)).toEqual({ shown: five, overflow: 0 });
    const seven = [...five, node('f'), node('g')];
    expect(limitNodes(seven, 5)).toEqual({ shown: seven.slice(0, 4), overflow: 3 });
  });

  it('is finished when the loaded count reaches the total', () => {
    expect(isFinished(10, 48)).toBe(false);
    expect(isFinished(48, 48)).toBe(true);
    expect(isFinished(0, 0)).toBe(true);
    expect(isFinished(0, undefined)).toBe(false);
  });

  it('scrolls by two cards and knows its ends within 7 px', () => {
    expect(carouselStep(16)).toBe(2 * (CAROUSEL_CARD_WIDTH + 16));
    expect(carouselStep(16, 220)).toBe(472);
    expect(carouselEnds(0, 2000, 1000)).toEqual({ atStart: true, atEnd: false });
    expect(carouselEnds(7, 2000, 1000).atStart).toBe(true);
    expect(carouselEnds(8, 2000, 1000).atStart).toBe(false);
    expect(carouselEnds(993, 2000, 1000).atEnd).toBe(true);
    expect(carouselEnds(992, 2000, 1000).atEnd).toBe(false);
  });

  it("starts session ids of the template area with 'templates-'", () => {
    expect(newTemplatesSessionId('ab12')).toBe('templates-ab12');
  });
});
