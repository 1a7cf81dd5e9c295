import { describe, expect, it } from 'vitest';
import { formatPath, getAt, parsePath, setAt } from './path';

describe('value paths', () => {
  it('parses and formats keys and indexes', () => {
    expect(parsePath('parameters.values.string[0].name')).toEqual(['parameters', 'values', 'string', 0, 'name']);
    expect(parsePath('a[1][2]')).toEqual(['a', 1, 2]);
    expect(formatPath(['values', 'string', 0, 'name'])).toBe('values.string[0].name');
  });

  it('reads, sets and removes without changing the input', () => {
    const root = { values: { string: [{ name: 'a' }, { name: 'b' }] } };
    expect(getAt(root, parsePath('values.string[1].name'))).toBe('b');
    expect(getAt(root, parsePath('values.number[0]'))).toBeUndefined();
    expect(setAt(root, parsePath('values.string[0].name'), 'x')).toEqual({ values: { string: [{ name: 'x' }, { name: 'b' }] } });
    expect(setAt(root, parsePath('values.string[0]'), undefined)).toEqual({ values: { string: [{ name: 'b' }] } });
    expect(setAt({}, parsePath('values.number[0].value'), 1)).toEqual({ values: { number: [{ value: 1 }] } });
    expect(setAt(root, parsePath('values.other.deep'), undefined)).toEqual(root);
    expect(root.values.string[0]?.name).toBe('a');
  });
});
