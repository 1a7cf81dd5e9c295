import { describe, expect, it } from 'vitest';
import { allItemsEmpty, cellContent, tableColumns } from './table';

describe('table columns and cells', () => {
  it('unites the top-level keys of the items in first-seen order', () => {
    const items = [{ json: { id: 1, name: 'a' } }, { json: { email: 'x', id: 2 } }, { json: { nested: { a: 1 }, name: 'c' } }];
    expect(tableColumns(items)).toEqual(['id', 'name', 'email', 'nested']);
  });

  it('leaves a cell empty when the item lacks the key, and labels empty values', () => {
    expect(cellContent({ a: 1 }, 'b')).toEqual({ kind: 'missing' });
    expect(cellContent({ a: '' }, 'a')).toEqual({ kind: 'emptyString' });
    expect(cellContent({ a: null }, 'a')).toEqual({ kind: 'null' });
    expect(cellContent({ a: [] }, 'a')).toEqual({ kind: 'emptyArray' });
    expect(cellContent({ a: {} }, 'a')).toEqual({ kind: 'emptyObject' });
    expect(cellContent({ a: false }, 'a')).toEqual({ kind: 'text', text: 'false' });
  });

  it('shows nested values as compact JSON, cut when long, and line breaks as \\n', () => {
    expect(cellContent({ a: { b: [1, 2] } }, 'a')).toEqual({ kind: 'json', text: '{"b":[1,2]}' });
    const long = cellContent({ a: { text: 'x'.repeat(500) } }, 'a', 20);
    expect(long).toEqual({ kind: 'json', text: `{"text":"${'x'.repeat(10)}…` });
    expect(cellContent({ a: 'one\ntwo' }, 'a')).toEqual({ kind: 'text', text: 'one\\ntwo' });
  });

  it('notices items that are all empty', () => {
    expect(allItemsEmpty([{ json: {} }, { json: {} }])).toBe(true);
    expect(allItemsEmpty([{ json: {} }, { json: { a: 1 } }])).toBe(false);
    expect(allItemsEmpty([])).toBe(false);
  });
});
