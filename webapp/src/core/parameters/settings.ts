import type { NodeProperty } from '@/core/workflow/nodeTypes';

/**
 * The fields of the node settings tab (n8n 0.186 NodeSettings), described like parameters so the
 * same editors show them. Display names and descriptions are translated by name in the view.
 */
export const NODE_SETTINGS: readonly NodeProperty[] = [
  { displayName: 'Notes', name: 'notes', type: 'string', typeOptions: { rows: 5 }, default: '', noDataExpression: true },
  { displayName: 'Display note in flow?', name: 'notesInFlow', type: 'boolean', default: false, noDataExpression: true },
  { displayName: 'Node Color', name: 'color', type: 'color', default: '#ff0000', noDataExpression: true },
  { displayName: 'Always Output Data', name: 'alwaysOutputData', type: 'boolean', default: false, noDataExpression: true },
  { displayName: 'Execute Once', name: 'executeOnce', type: 'boolean', default: false, noDataExpression: true },
  { displayName: 'Retry On Fail', name: 'retryOnFail', type: 'boolean', default: false, noDataExpression: true },
  {
    displayName: 'Max. Tries',
    name: 'maxTries',
    type: 'number',
    typeOptions: { minValue: 2, maxValue: 5 },
    default: 3,
    displayOptions: { show: { retryOnFail: [true] } },
    noDataExpression: true,
  },
  {
    displayName: 'Wait Between Tries (ms)',
    name: 'waitBetweenTries',
    type: 'number',
    typeOptions: { minValue: 0, maxValue: 5000 },
    default: 1000,
    displayOptions: { show: { retryOnFail: [true] } },
    noDataExpression: true,
  },
  { displayName: 'Continue On Fail', name: 'continueOnFail', type: 'boolean', default: false, noDataExpression: true },
];

export function nodeSetting(name: string): NodeProperty | undefined {
  return NODE_SETTINGS.find((setting) => setting.name === name);
}
