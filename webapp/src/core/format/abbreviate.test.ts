import { describe, expect, it } from 'vitest';
import { abbreviateNumber } from './abbreviate';

describe('abbreviateNumber', () => {
  it.each([
    [0, '0'],
    [999, '999'],
    [1000, '1k'],
    [1500, '1.5k'],
    [1549, '1.5k'],
    [1550, '1.6k'],
    [999_949, '999.9k'],
    [999_960, '1M'],
    [2_000_000, '2M'],
    [3_250_000_000, '3.3G'],
    [7.1e12, '7.1T'],
    [4e15, '4P'],
    [5.55e18, '5.6E'],
    [2e21, '2000E'],
    [-1500, '-1.5k'],
    [12.34, '12.3'],
  ])('%d reads %s', (value, text) => {
    expect(abbreviateNumber(value)).toBe(text);
  });

  it('shows non-finite numbers as they are', () => {
    expect(abbreviateNumber(Number.NaN)).toBe('NaN');
    expect(abbreviateNumber(Number.POSITIVE_INFINITY)).toBe('Infinity');
  });
});
