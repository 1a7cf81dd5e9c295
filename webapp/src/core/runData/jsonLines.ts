/** Levels of the JSON view expanded by default (spec 001 §9); error causes use 3. */
export const JSON_VIEW_DEPTH = 10;
export const ERROR_CAUSE_DEPTH = 3;

/**
 * One line of a JSON tree as the view draws it. Paths use n8n's expression notation below the
 * root: `[0]["name"]`; the root's path is ''.
 */
export type JsonLine =
  | { kind: 'open'; path: string; depth: number; label: string | number | null; bracket: '{' | '['; size: number }
  | { kind: 'close'; path: string; depth: number; bracket: '}' | ']'; comma: boolean }
  | { kind: 'collapsed'; path: string; depth: number; label: string | number | null; bracket: '{' | '['; size: number; comma: boolean }
  | { kind: 'value'; path: string; depth: number; label: string | number | null; value: string | number | boolean | null | undefined; comma: boolean };

export interface JsonLinesOptions {
  /** Containers at this depth and deeper start collapsed. */
  depth: number;
  /** Paths the user toggled away from their default state. */
  toggled: ReadonlySet<string>;
}

/** Whether a container shows collapsed: deep ones start collapsed, a toggle flips that. */
export function isCollapsed(path: string, depth: number, options: JsonLinesOptions): boolean {
  const byDefault = depth >= options.depth;
  return options.toggled.has(path) ? !byDefault : byDefault;
}

export function childPath(path: string, key: string | number): string {
  return typeof key === 'number' ? `${path}[${key}]` : `${path}[${JSON.stringify(key)}]`;
}

/** Flattens a value into the lines of its tree, leaving out the insides of collapsed containers. */
export function jsonLines(value: unknown, options: JsonLinesOptions): JsonLine[] {
  const out: JsonLine[] = [];
  const visit = (current: unknown, path: string, depth: number, label: string | number | null, comma: boolean) => {
    if (current === null || typeof current !== 'object') {
      const primitive = typeof current === 'bigint' || typeof current === 'symbol' || typeof current === 'function' ? String(current) : (current as string | number | boolean | null | undefined);
      out.push({ kind: 'value', path, depth, label, value: primitive, comma });
      return;
    }
    const isArray = Array.isArray(current);
    const entries: Array<[string | number, unknown]> = isArray ? current.map((v, i) => [i, v]) : Object.entries(current);
    const open = isArray ? '[' : '{';
    if (entries.length === 0 || isCollapsed(path, depth, options)) {
      out.push({ kind: 'collapsed', path, depth, label, bracket: open, size: entries.length, comma });
      return;
    }
    out.push({ kind: 'open', path, depth, label, bracket: open, size: entries.length });
    entries.forEach(([key, child], index) => visit(child, childPath(path, key), depth + 1, key, index < entries.length - 1));
    out.push({ kind: 'close', path, depth, bracket: isArray ? ']' : '}', comma });
  };
  visit(value, '', 0, null, false);
  return out;
}

/** The segments of a path in n8n's notation: numbers for indexes, strings for keys. */
export function pathSegments(path: string): Array<string | number> {
  const out: Array<string | number> = [];
  for (const match of path.matchAll(/\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/g)) {
    if (match[1] !== undefined) out.push(Number(match[1]));
    else if (match[2] !== undefined) out.push(JSON.parse(match[2]) as string);
  }
  return out;
}

/** The value at a path; undefined when the path leads nowhere. */
export function valueAtPath(root: unknown, path: string): unknown {
  let current: unknown = root;
  for (const segment of pathSegments(path)) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return current;
}

function pathOf(segments: ReadonlyArray<string | number>): string {
  return segments.reduce<string>((path, segment) => childPath(path, segment), '');
}

/**
 * "Copy Item Path" of a selection in the JSON view of a page of items: the first segment is the
 * index within the page, `offset` the index of the page's first item. Null for the root.
 */
export function itemPathExpression(nodeName: string, path: string, offset: number): string | null {
  const [index, ...rest] = pathSegments(path);
  if (typeof index !== 'number') return null;
  return `{{ $item(${offset + index}).$node[${JSON.stringify(nodeName)}].json${pathOf(rest)} }}`;
}

/** "Copy Parameter Path": the selection as `$node["Name"].json…`, without the item index. */
export function parameterPathExpression(nodeName: string, path: string): string | null {
  const [index, ...rest] = pathSegments(path);
  if (typeof index !== 'number') return null;
  return `{{ $node[${JSON.stringify(nodeName)}].json${pathOf(rest)} }}`;
}
