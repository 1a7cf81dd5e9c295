import type { JsonObject, JsonValue } from '@/core/workflow/types';

/** One step of a value path: an object key or an array index. */
export type PathSegment = string | number;

/**
 * Splits a value path such as `parameters.values.string[0].name` into its steps
 * (`['parameters', 'values', 'string', 0, 'name']`).
 */
export function parsePath(path: string): PathSegment[] {
  const segments: PathSegment[] = [];
  for (const part of path.split('.')) {
    if (part === '') continue;
    const match = /^([^[\]]*)((?:\[\d+\])*)$/.exec(part);
    if (!match) {
      segments.push(part);
      continue;
    }
    if (match[1] !== '') segments.push(match[1] as string);
    for (const index of (match[2] ?? '').matchAll(/\[(\d+)\]/g)) segments.push(Number(index[1]));
  }
  return segments;
}

/** Joins steps back into a path (`values.string[0].name`). */
export function formatPath(segments: readonly PathSegment[]): string {
  return segments.reduce<string>((path, segment) => (typeof segment === 'number' ? `${path}[${segment}]` : path === '' ? segment : `${path}.${segment}`), '');
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value at a path, or undefined when any step is missing. */
export function getAt(root: JsonValue | undefined, segments: readonly PathSegment[]): JsonValue | undefined {
  let current: JsonValue | undefined = root;
  for (const segment of segments) {
    if (typeof segment === 'number') {
      if (!Array.isArray(current)) return undefined;
      current = current[segment];
    } else {
      if (!isJsonObject(current)) return undefined;
      current = current[segment];
    }
  }
  return current;
}

function without(object: JsonObject, key: string): JsonObject {
  return Object.fromEntries(Object.entries(object).filter(([name]) => name !== key));
}

function container(next: PathSegment | undefined): JsonValue {
  return typeof next === 'number' ? [] : {};
}

/**
 * A copy of `root` with `value` at the path; missing steps become objects or arrays as the next
 * step requires. `undefined` removes the value: an array element is spliced out, a key deleted.
 */
export function setAt(root: JsonValue | undefined, segments: readonly PathSegment[], value: JsonValue | undefined): JsonValue | undefined {
  const [head, ...rest] = segments;
  if (head === undefined) return value;
  if (typeof head === 'number') {
    const list = Array.isArray(root) ? [...root] : [];
    if (rest.length === 0 && value === undefined) {
      if (head < list.length) list.splice(head, 1);
      return list;
    }
    if (rest.length > 0 && value === undefined && list[head] === undefined) return list;
    const child = setAt(list[head] ?? container(rest[0]), rest, value);
    while (list.length < head) list.push(null);
    list[head] = child ?? null;
    return list;
  }
  const object: JsonObject = isJsonObject(root) ? { ...root } : {};
  if (rest.length === 0 && value === undefined) return without(object, head);
  if (rest.length > 0 && value === undefined && object[head] === undefined) return object;
  const child = setAt(object[head] ?? container(rest[0]), rest, value);
  if (child === undefined) return without(object, head);
  object[head] = child;
  return object;
}
