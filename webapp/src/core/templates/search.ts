import type { TemplateCategory, TemplateNode } from './types';

/** Spec 000 §9: the template library's constants. */
export const TEMPLATES_PAGE_SIZE = 10;
export const TEMPLATES_SEARCH_DEBOUNCE_MS = 500;
export const CATEGORIES_COLLAPSED_LIMIT = 12;
export const CAROUSEL_SLIDES = 4;
export const CAROUSEL_CARD_WIDTH = 240;
export const CAROUSEL_SCROLL_CARDS = 2;
export const CAROUSEL_SCROLL_END_TOLERANCE = 7;
export const CARD_NODE_ICON_LIMIT = 5;
export const NODE_LIST_DEFAULT_LIMIT = 4;
export const SKELETON_CARDS = 4;
export const TEMPLATES_SESSION_PREFIX = 'templates-';

/** The search page's state as its URL holds it: `?search=…&categories=1,4`. */
export interface TemplatesSearch {
  search: string;
  categories: number[];
}

/** Reads the state from the query; category ids that are not positive whole numbers are dropped. */
export function parseTemplatesSearch(params: URLSearchParams): TemplatesSearch {
  const categories: number[] = [];
  for (const part of (params.get('categories') ?? '').split(',')) {
    const trimmed = part.trim();
    if (!/^\d+$/.test(trimmed)) continue;
    const id = Number(trimmed);
    if (id > 0 && !categories.includes(id)) categories.push(id);
  }
  return { search: params.get('search') ?? '', categories };
}

/** The query for a state: empty parts are left out, so the plain page is `/templates/`. */
export function templatesSearchParams(state: TemplatesSearch): URLSearchParams {
  const params = new URLSearchParams();
  if (state.search !== '') params.set('search', state.search);
  if (state.categories.length > 0) params.set('categories', state.categories.join(','));
  return params;
}

/** Whether two states ask the same thing (category order does not matter). */
export function sameSearch(a: TemplatesSearch, b: TemplatesSearch): boolean {
  return searchKey(a) === searchKey(b);
}

/** The key of a search in the results cache: the text plus the sorted category ids (spec 000 §3). */
export function searchKey(state: TemplatesSearch): string {
  return `${state.search}|${[...state.categories].sort((x, y) => x - y).join(',')}`;
}

/** Selects or unselects a category; selecting All (null) clears the selection. */
export function toggleCategory(selected: readonly number[], id: number | null): number[] {
  if (id === null) return [];
  return selected.includes(id) ? selected.filter((c) => c !== id) : [...selected, id];
}

/**
 * The category filter's order: the categories preselected when the page opened (from the URL)
 * first, in the order the host gave, then the others.
 */
export function orderCategories(categories: readonly TemplateCategory[], preselected: readonly number[]): TemplateCategory[] {
  const first = categories.filter((c) => preselected.includes(c.id));
  return [...first, ...categories.filter((c) => !preselected.includes(c.id))];
}

/** The categories shown: 12 until expanded, and how many the '+ N more' expander holds. */
export function visibleCategories<T>(categories: readonly T[], expanded: boolean, limit = CATEGORIES_COLLAPSED_LIMIT): { shown: T[]; more: number } {
  if (expanded || categories.length <= limit) return { shown: [...categories], more: 0 };
  return { shown: categories.slice(0, limit), more: categories.length - limit };
}

/**
 * A node list with an overflow count: at most `limit` entries; when there are more, the last
 * place goes to '+N' (so limit − 1 icons and the count of the rest).
 */
export function limitNodes(nodes: readonly TemplateNode[], limit: number): { shown: TemplateNode[]; overflow: number } {
  if (nodes.length <= limit) return { shown: [...nodes], overflow: 0 };
  return { shown: nodes.slice(0, limit - 1), overflow: nodes.length - (limit - 1) };
}

/** The list is finished when every result of the search is loaded (spec 000 §4). */
export function isFinished(loaded: number, total: number | undefined): boolean {
  return total !== undefined && loaded >= total;
}

/**
 * How far the carousel's arrows scroll: two card widths with the gaps between them. Cards are
 * 240 px wide, narrower only where four of them would not fit.
 */
export function carouselStep(gap: number, cardWidth = CAROUSEL_CARD_WIDTH): number {
  return CAROUSEL_SCROLL_CARDS * (cardWidth + gap);
}

/** Which carousel arrows apply, with the end tolerance of spec 000 §9. */
export function carouselEnds(scrollLeft: number, scrollWidth: number, clientWidth: number): { atStart: boolean; atEnd: boolean } {
  return {
    atStart: scrollLeft <= CAROUSEL_SCROLL_END_TOLERANCE,
    atEnd: scrollLeft + clientWidth >= scrollWidth - CAROUSEL_SCROLL_END_TOLERANCE,
  };
}

/** A new session id of the template area: 'templates-' and random hex (spec 000 §9). */
export function newTemplatesSessionId(randomHex: string): string {
  return `${TEMPLATES_SESSION_PREFIX}${randomHex}`;
}
