import type { RunItem } from './runs';

/** Longest text a table cell shows before it is cut with an ellipsis. */
export const MAX_CELL_LENGTH = 300;

/** The union of the items' top-level JSON keys, in the order they are first seen. */
export function tableColumns(items: readonly RunItem[]): string[] {
  const seen = new Set<string>();
  for (const item of items) {
    for (const key of Object.keys(item.json ?? {})) seen.add(key);
  }
  return [...seen];
}

/** What a cell shows; kinds other than 'text' and 'json' are labelled by the view. */
export type CellContent =
  | { kind: 'missing' }
  | { kind: 'emptyString' }
  | { kind: 'null' }
  | { kind: 'emptyArray' }
  | { kind: 'emptyObject' }
  | { kind: 'text'; text: string }
  | { kind: 'json'; text: string };

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * The cell of one item for a column. Nested objects and arrays show as compact JSON; long text is
 * cut at `max` characters; line breaks show as `\n` so every cell stays one line.
 */
export function cellContent(json: Record<string, unknown> | undefined, column: string, max: number = MAX_CELL_LENGTH): CellContent {
  if (!json || !Object.prototype.hasOwnProperty.call(json, column)) return { kind: 'missing' };
  const value = json[column];
  if (value === undefined) return { kind: 'missing' };
  if (value === null) return { kind: 'null' };
  if (value === '') return { kind: 'emptyString' };
  if (Array.isArray(value)) return value.length === 0 ? { kind: 'emptyArray' } : { kind: 'json', text: cut(JSON.stringify(value), max) };
  if (typeof value === 'object') {
    return Object.keys(value).length === 0 ? { kind: 'emptyObject' } : { kind: 'json', text: cut(JSON.stringify(value), max) };
  }
  return { kind: 'text', text: cut(String(value).replace(/\r?\n/g, '\\n'), max) };
}

/** Whether every item has empty JSON (n8n: "This is an item, but it's empty."). */
export function allItemsEmpty(items: readonly RunItem[]): boolean {
  return items.length > 0 && items.every((item) => Object.keys(item.json ?? {}).length === 0);
}
