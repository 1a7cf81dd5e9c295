import { describe, expect, it } from 'vitest';
import raw from './en.json?raw';

describe('the en catalogue', () => {
  it('defines every key once (a repeated key silently replaces the earlier text)', () => {
    const keys = [...raw.matchAll(/^\s*"((?:[^"\\]|\\.)*)"\s*:/gm)].map((match) => match[1]);
    const repeated = keys.filter((key, index) => keys.indexOf(key) !== index);
    expect(repeated).toEqual([]);
  });
});
