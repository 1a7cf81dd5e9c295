/** Rows rendered beyond each edge of the viewport so fast scrolling shows no blank rows. */
export const VIRTUAL_OVERSCAN = 12;

export interface VirtualRange {
  /** First rendered row. */
  start: number;
  /** One past the last rendered row. */
  end: number;
  /** Space in pixels above and below the rendered rows. */
  before: number;
  after: number;
}

/** The rows of a fixed-height list that a viewport at `scrollTop` of `height` pixels shows. */
export function visibleRange(count: number, rowHeight: number, scrollTop: number, height: number, overscan: number = VIRTUAL_OVERSCAN): VirtualRange {
  if (count <= 0 || rowHeight <= 0) return { start: 0, end: 0, before: 0, after: 0 };
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const start = Math.max(0, Math.min(count - 1, first) - overscan);
  const end = Math.min(count, Math.ceil((Math.max(0, scrollTop) + Math.max(0, height)) / rowHeight) + overscan);
  return { start, end: Math.max(start, end), before: start * rowHeight, after: (count - Math.max(start, end)) * rowHeight };
}
