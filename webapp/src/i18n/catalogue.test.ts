import { describe, expect, it } from 'vitest';
import main from './en.json?raw';

const areas = import.meta.glob<string>('./en/*.json', { eager: true, query: '?raw', import: 'default' });

function keysOf(raw: string): string[] {
  return [...raw.matchAll(/^\s*"((?:[^"\\]|\\.)*)"\s*:/gm)].map((match) => match[1] ?? '');
}

describe('the en catalogue', () => {
  it('defines every key once across the main and area files (a repeated key silently replaces the earlier text)', () => {
    const keys = [main, ...Object.values(areas)].flatMap(keysOf);
    const repeated = keys.filter((key, index) => keys.indexOf(key) !== index);
    expect(repeated).toEqual([]);
  });

  it('keeps every area file a flat map of strings', () => {
    for (const [file, raw] of Object.entries(areas)) {
      const parsed = JSON.parse(raw) as Record<string, unknown>;
      for (const [key, value] of Object.entries(parsed)) expect(typeof value, `${file} ${key}`).toBe('string');
    }
  });
});
