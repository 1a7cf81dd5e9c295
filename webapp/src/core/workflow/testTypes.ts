import { NodeTypeIndex, type NodeTypeDescription } from './nodeTypes';

function type(name: string, displayName: string, extra: Partial<NodeTypeDescription> = {}): NodeTypeDescription {
  return {
    name: `n8n-nodes-base.${name}`,
    displayName,
    group: ['transform'],
    version: 1,
    defaults: { name: displayName },
    inputs: ['main'],
    outputs: ['main'],
    ...extra,
  };
}

/** A small catalogue of node types shaped like the server's, for unit tests. */
export const TEST_TYPES: NodeTypeDescription[] = [
  type('start', 'Start', { group: ['input'], inputs: [], hidden: true, maxNodes: 1 }),
  type('manualTrigger', 'Manual Trigger', {
    group: ['trigger'],
    inputs: [],
    maxNodes: 1,
    defaults: { name: 'When clicking "Execute Workflow"' },
    codex: { categories: ['Core Nodes'], subcategories: { 'Core Nodes': ['Flow'] }, alias: ['button', 'click'] },
  }),
  type('set', 'Set', { version: [1, 2], codex: { categories: ['Core Nodes'], subcategories: { 'Core Nodes': ['Data Transformation'] } } }),
  type('if', 'IF', { outputs: ['main', 'main'], outputNames: ['true', 'false'], codex: { categories: ['Core Nodes'], subcategories: { 'Core Nodes': ['Flow'] }, alias: ['Condition'] } }),
  type('switch', 'Switch', { outputs: ['main', 'main', 'main', 'main'], codex: { categories: ['Core Nodes'], subcategories: { 'Core Nodes': ['Flow'] } } }),
  type('merge', 'Merge', { inputs: ['main', 'main'], codex: { categories: ['Core Nodes'], subcategories: { 'Core Nodes': ['Flow'] } } }),
  type('noOp', 'No Operation, do nothing', { codex: { categories: ['Core Nodes'], subcategories: { 'Core Nodes': ['Helpers'] } } }),
  type('webhook', 'Webhook', { group: ['trigger'], inputs: [], eventTriggerDescription: 'Waiting for you to call the Test URL', webhooks: [{ httpMethod: 'GET', path: '={{$parameter["path"]}}' }], codex: { categories: ['Core Nodes'], subcategories: { 'Core Nodes': ['Helpers'] } } }),
  type('httpRequest', 'HTTP Request', { version: 2, codex: { categories: ['Core Nodes'], subcategories: { 'Core Nodes': ['Helpers'] } } }),
  type('stickyNote', 'Sticky Note', { inputs: [], outputs: [], defaults: { name: 'Note' } }),
  type('custom', 'My Custom', {}),
];

export const TEST_INDEX = new NodeTypeIndex(TEST_TYPES);

export function testType(name: string): NodeTypeDescription {
  const found = TEST_INDEX.get(`n8n-nodes-base.${name}`);
  if (!found) throw new Error(`no test type ${name}`);
  return found;
}
