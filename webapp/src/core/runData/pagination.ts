/** Items per page, or every item on one page. */
export type PageSize = number | 'all';

/** Page size choices of the pager (spec 001 §9); 'all' is offered as well. */
export const PAGE_SIZES: readonly number[] = [10, 25, 50, 100];
export const DEFAULT_PAGE_SIZE = 10;
/** Most page buttons the pager shows, first and last included. */
export const PAGER_BUTTONS = 5;

/** Number of pages, at least 1. */
export function pageCount(total: number, pageSize: PageSize): number {
  if (pageSize === 'all' || total <= 0) return 1;
  return Math.ceil(total / pageSize);
}

export function clampPage(page: number, pages: number): number {
  return Math.max(1, Math.min(Math.floor(page), Math.max(1, pages)));
}

/** Index range [start, end) of a 1-based page; the page is clamped to the pages there are. */
export function pageRange(total: number, page: number, pageSize: PageSize): { start: number; end: number } {
  if (pageSize === 'all') return { start: 0, end: total };
  const current = clampPage(page, pageCount(total, pageSize));
  const start = (current - 1) * pageSize;
  return { start, end: Math.min(total, start + pageSize) };
}

/** A page button or a gap ('…') between non-adjacent buttons. */
export type PagerEntry = number | 'gap';

/**
 * The page buttons to show: all pages when they fit, otherwise the first and last page with a
 * window around the current one, at most `buttons` numbers in all (like n8n's pager).
 */
export function pagerEntries(page: number, pages: number, buttons: number = PAGER_BUTTONS): PagerEntry[] {
  if (pages <= 1) return [1];
  const current = clampPage(page, pages);
  if (pages <= buttons) return Array.from({ length: pages }, (_, i) => i + 1);
  const inner = buttons - 2;
  let from = current - Math.floor((inner - 1) / 2);
  from = Math.max(2, Math.min(from, pages - inner));
  const to = from + inner - 1;
  const out: PagerEntry[] = [1];
  if (from > 2) out.push('gap');
  for (let p = from; p <= to; p++) out.push(p);
  if (to < pages - 1) out.push('gap');
  out.push(pages);
  return out;
}
