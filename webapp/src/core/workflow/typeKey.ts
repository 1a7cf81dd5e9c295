import { storedVersion } from './nodeTypes';
import type { WorkflowNode } from './types';

const typeKeys = new WeakMap<readonly WorkflowNode[], string>();

/** The node types a node list uses, as sorted `name@version` lines (memoised per list). */
export function nodeTypeKey(nodes: readonly WorkflowNode[]): string {
  let key = typeKeys.get(nodes);
  if (key === undefined) {
    key = [...new Set(nodes.map((node) => `${node.type}@${storedVersion(node)}`))].sort().join('\n');
    typeKeys.set(nodes, key);
  }
  return key;
}
