import type { ParameterChange } from '@/core/parameters/applyChange';
import { CODE_NODE_TYPE } from '@/core/workflow/nodeTypes';
import type { WorkflowNode } from '@/core/workflow/types';

/** The Code node's example code per mode, as n8n pre-fills it. */
export const CODE_NODE_EXAMPLES: Readonly<Record<string, string>> = {
  runOnceForAllItems: `// Loop over input items and add a new field
// called 'myNewField' to the JSON of each one
for (const item of $input.all()) {
  item.json.myNewField = 1;
}

return $input.all();`,
  runOnceForEachItem: `// Add a new field called 'myNewField' to the
// JSON of the item
$input.item.json.myNewField = 1;

return $input.item;`,
};

/**
 * The Code node's code after its mode changes: an untouched example is swapped for the new
 * mode's example (as n8n does); edited code stays. Undefined when nothing changes.
 */
export function codeForMode(code: unknown, mode: string): string | undefined {
  const next = CODE_NODE_EXAMPLES[mode];
  if (next === undefined || code === next) return undefined;
  const untouched = code === undefined || code === '' || Object.values(CODE_NODE_EXAMPLES).includes(String(code));
  return untouched ? next : undefined;
}

/**
 * The change that follows another on a node: switching a Code node's mode swaps its untouched
 * example code. Null when nothing follows.
 */
export function followingChange(node: WorkflowNode, change: ParameterChange): ParameterChange | null {
  if (node.type !== CODE_NODE_TYPE || change.path !== 'parameters.mode' || typeof change.value !== 'string') return null;
  const code = codeForMode(node.parameters.jsCode ?? CODE_NODE_EXAMPLES.runOnceForAllItems, change.value);
  return code === undefined ? null : { path: 'parameters.jsCode', value: code };
}
