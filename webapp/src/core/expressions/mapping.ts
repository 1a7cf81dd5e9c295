import { childPath, pathSegments } from '@/core/runData/jsonLines';

/** The drag data type of a field dragged from the input panel onto a parameter. */
export const MAPPING_MIME = 'application/x-flowmill-mapping';

/** A field dragged from the input panel: the node whose data it is and its path below an item. */
export interface MappedField {
  nodeName: string;
  /** Whether the node feeds the open node directly (then `$json`, else `$node["Name"].json`). */
  direct: boolean;
  /** Segments below the item's JSON: keys and array indexes. */
  path: ReadonlyArray<string | number>;
}

/** The segments below the item of a JSON view path (`[0]["a"]["b"]` → `["a", "b"]`); null for an item or the root. */
export function fieldPathOfJsonView(path: string): Array<string | number> | null {
  const [index, ...rest] = pathSegments(path);
  if (typeof index !== 'number' || rest.length === 0) return null;
  return rest;
}

/**
 * The expression a dropped field inserts, n8n 0.186 style: `{{ $json["a"]["b"] }}` for the input
 * of the open node, `{{ $node["Name"].json["a"] }}` for data of a node further up.
 */
export function mappingExpression(field: MappedField): string {
  const root = field.direct ? '$json' : `$node[${JSON.stringify(field.nodeName)}].json`;
  const path = field.path.reduce<string>((out, segment) => childPath(out, segment), '');
  return `{{ ${root}${path} }}`;
}

/**
 * A parameter's value after a field is dropped on it (n8n 0.186): a non-empty expression gets the
 * new one appended after a space; any other value becomes the expression alone.
 */
export function droppedValue(current: unknown, expression: string): string {
  if (typeof current === 'string' && current.startsWith('=') && current.length > 1) return `${current} ${expression}`;
  return `=${expression}`;
}

/** Encodes a dragged field for the drag data; `parseMappedField` reads it back (null when foreign). */
export function encodeMappedField(field: MappedField): string {
  return JSON.stringify(field);
}

export function parseMappedField(text: string): MappedField | null {
  try {
    const value: unknown = JSON.parse(text);
    if (value === null || typeof value !== 'object') return null;
    const { nodeName, direct, path } = value as Record<string, unknown>;
    if (typeof nodeName !== 'string' || typeof direct !== 'boolean' || !Array.isArray(path)) return null;
    if (!path.every((s) => typeof s === 'string' || (typeof s === 'number' && Number.isInteger(s) && s >= 0))) return null;
    return { nodeName, direct, path: path as Array<string | number> };
  } catch {
    return null;
  }
}
