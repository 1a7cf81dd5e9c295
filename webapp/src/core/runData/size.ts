import type { RunItem } from './runs';

/** Shown data larger than this many characters of JSON is hidden behind a button (spec 001 §9). */
export const MAX_DISPLAY_DATA_SIZE = 204800;

const sizes = new WeakMap<readonly RunItem[], number>();

/**
 * Length of the items as JSON, measured once per list: run data is never changed in place, so
 * the same list always has the same size.
 */
export function dataSizeOf(items: readonly RunItem[]): number {
  const known = sizes.get(items);
  if (known !== undefined) return known;
  const size = items.length === 0 ? 2 : JSON.stringify(items).length;
  sizes.set(items, size);
  return size;
}

export function isTooLargeToDisplay(size: number): boolean {
  return size > MAX_DISPLAY_DATA_SIZE;
}

/** The size in MB as n8n reports it (size / 1024 / 1000), to one decimal. */
export function sizeInMB(size: number): number {
  return Math.round((size / 1024 / 1000) * 10) / 10;
}

/** Whether a value is small enough to display as JSON (error causes). */
export function fitsDisplay(value: unknown): boolean {
  try {
    return (JSON.stringify(value) ?? '').length < MAX_DISPLAY_DATA_SIZE;
  } catch {
    return false;
  }
}
