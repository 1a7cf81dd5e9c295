import { describe, expect, it } from 'vitest';
import { visibleRange } from './virtualRange';

describe('virtual list window', () => {
  it('renders the rows in view plus the overscan, with spacers for the rest', () => {
    expect(visibleRange(10000, 20, 0, 400, 5)).toEqual({ start: 0, end: 25, before: 0, after: (10000 - 25) * 20 });
    expect(visibleRange(10000, 20, 2000, 400, 5)).toEqual({ start: 95, end: 125, before: 1900, after: (10000 - 125) * 20 });
  });

  it('stays inside the list at its end and for empty lists', () => {
    expect(visibleRange(30, 20, 10000, 400, 5)).toEqual({ start: 24, end: 30, before: 480, after: 0 });
    expect(visibleRange(0, 20, 0, 400)).toEqual({ start: 0, end: 0, before: 0, after: 0 });
  });
});
