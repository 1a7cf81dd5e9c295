import { describe, expect, it } from 'vitest';
import { dataSizeOf, fitsDisplay, isTooLargeToDisplay, MAX_DISPLAY_DATA_SIZE, sizeInMB } from './size';
import type { RunItem } from './runs';

describe('size guards', () => {
  it('measures items as JSON length and remembers the result per list', () => {
    const items: RunItem[] = [{ json: { a: 1 } }];
    expect(dataSizeOf(items)).toBe(JSON.stringify(items).length);
    items.push({ json: { b: 'x'.repeat(100) } });
    expect(dataSizeOf(items)).toBe('[{"json":{"a":1}}]'.length);
  });

  it('hides data above 204,800 characters', () => {
    expect(isTooLargeToDisplay(MAX_DISPLAY_DATA_SIZE)).toBe(false);
    expect(isTooLargeToDisplay(MAX_DISPLAY_DATA_SIZE + 1)).toBe(true);
    const big: RunItem[] = Array.from({ length: 5000 }, (_, i) => ({ json: { index: i, text: 'lorem ipsum dolor sit amet' } }));
    expect(isTooLargeToDisplay(dataSizeOf(big))).toBe(true);
  });

  it('reports megabytes the way n8n does', () => {
    expect(sizeInMB(1024 * 1000)).toBe(1);
    expect(sizeInMB(1024 * 1000 * 2.54)).toBe(2.5);
  });

  it('refuses error causes that are too large or cannot be serialised', () => {
    expect(fitsDisplay({ code: 'E' })).toBe(true);
    expect(fitsDisplay({ text: 'x'.repeat(MAX_DISPLAY_DATA_SIZE) })).toBe(false);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(fitsDisplay(cyclic)).toBe(false);
  });
});
