/** Expression paths to data: `$json.a`, `$json["a b"]`, `$json.list[0]`. */

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** The path to a property of the value at `parent`: dot notation when the name is an identifier. */
export function propertyPath(parent: string, name: string): string {
  return IDENTIFIER.test(name) ? `${parent}.${name}` : `${parent}[${JSON.stringify(name)}]`;
}

/** The path to an element of the array at `parent`. */
export function indexPath(parent: string, index: number): string {
  return `${parent}[${index}]`;
}

/** `$node["Name"]`: how expressions name another node. */
export function nodePath(nodeName: string): string {
  return `$node[${JSON.stringify(nodeName)}]`;
}

/** What selecting an object or array entry inserts (n8n's raw value, keys, values, length). */
export type ParentSelection = 'raw' | 'keys' | 'values' | 'length';

/** The selections an entry of the given data type offers, raw value first. */
export function parentSelections(dataType: 'object' | 'array'): ParentSelection[] {
  return dataType === 'array' ? ['raw', 'length', 'values'] : ['raw', 'keys', 'values'];
}

/** The expression a selection inserts for the entry at `path`. */
export function selectionExpression(path: string, selection: ParentSelection, dataType: 'object' | 'array'): string {
  switch (selection) {
    case 'length':
      return `${path}.length`;
    case 'keys':
      return `Object.keys(${path}).join(', ')`;
    case 'values':
      return dataType === 'array' ? `${path}.join(', ')` : `Object.values(${path}).join(', ')`;
    default:
      return path;
  }
}
