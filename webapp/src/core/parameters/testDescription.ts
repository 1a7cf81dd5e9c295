import type { NodeProperty, NodeTypeDescription } from '@/core/workflow/nodeTypes';
import type { WorkflowNode } from '@/core/workflow/types';

/** A node type with every kind of parameter and nesting, for the parameter tests. */
export const PROPERTIES: NodeProperty[] = [
  { displayName: 'Authentication', name: 'authentication', type: 'options', default: 'none', options: [{ name: 'None', value: 'none' }, { name: 'Basic Auth', value: 'basicAuth' }] },
  {
    displayName: 'Resource',
    name: 'resource',
    type: 'options',
    noDataExpression: true,
    default: 'user',
    options: [
      { name: 'User', value: 'user' },
      { name: 'Team', value: 'team' },
    ],
  },
  {
    displayName: 'Operation',
    name: 'operation',
    type: 'options',
    default: 'get',
    options: [
      { name: 'Get', value: 'get' },
      { name: 'Create', value: 'create' },
    ],
  },
  { displayName: 'User ID', name: 'userId', type: 'string', default: '', required: true, displayOptions: { show: { resource: ['user'], operation: ['get'] } } },
  { displayName: 'Team Name', name: 'teamName', type: 'string', default: '', required: true, displayOptions: { show: { resource: ['team'] } } },
  { displayName: 'Limit', name: 'limit', type: 'number', default: 50, typeOptions: { minValue: 1, maxValue: 100 }, displayOptions: { hide: { operation: ['create'] } } },
  { displayName: 'New In V2', name: 'v2Only', type: 'boolean', default: false, displayOptions: { show: { '@version': [2] } } },
  { displayName: 'Secret', name: 'secret', type: 'hidden', default: 'x' },
  { displayName: 'Tags', name: 'tags', type: 'multiOptions', default: [], options: [{ name: 'A', value: 'a' }, { name: 'B', value: 'b' }] },
  { displayName: 'Zone', name: 'zone', type: 'options', default: '', typeOptions: { loadOptionsMethod: 'getZones' } },
  {
    displayName: 'Options',
    name: 'options',
    type: 'collection',
    placeholder: 'Add Option',
    default: {},
    options: [
      { displayName: 'Timeout', name: 'timeout', type: 'number', default: 10000 },
      { displayName: 'Proxy', name: 'proxy', type: 'string', default: '', required: true },
      { displayName: 'Team Only', name: 'teamOnly', type: 'boolean', default: false, displayOptions: { show: { '/resource': ['team'] } } },
      { displayName: 'Mode', name: 'mode', type: 'options', default: 'fast', options: [{ name: 'Fast', value: 'fast' }, { name: 'Safe', value: 'safe' }] },
      { displayName: 'Retries', name: 'retries', type: 'number', default: 1, displayOptions: { show: { mode: ['safe'] } } },
    ],
  },
  {
    displayName: 'Values to Set',
    name: 'values',
    type: 'fixedCollection',
    placeholder: 'Add Value',
    typeOptions: { multipleValues: true, sortable: true },
    default: {},
    options: [
      {
        name: 'string',
        displayName: 'String',
        values: [
          { displayName: 'Name', name: 'name', type: 'string', default: 'propertyName', required: true },
          { displayName: 'Value', name: 'value', type: 'string', default: '' },
          { displayName: 'Kind', name: 'kind', type: 'options', default: 'plain', options: [{ name: 'Plain', value: 'plain' }, { name: 'Rich', value: 'rich' }] },
          { displayName: 'Format', name: 'format', type: 'string', default: 'html', displayOptions: { show: { kind: ['rich'] } } },
        ],
      },
      { name: 'number', displayName: 'Number', values: [{ displayName: 'Value', name: 'value', type: 'number', default: 0 }] },
    ],
  },
  {
    displayName: 'Body',
    name: 'body',
    type: 'fixedCollection',
    default: {},
    options: [{ name: 'content', displayName: 'Content', values: [{ displayName: 'Text', name: 'text', type: 'string', default: '' }] }],
  },
];

export const TYPE: NodeTypeDescription = {
  name: 'test.everything',
  displayName: 'Everything',
  group: ['transform'],
  version: [1, 2],
  defaults: { name: 'Everything', color: '#00ff00' },
  inputs: ['main'],
  outputs: ['main'],
  credentials: [{ name: 'testBasicAuth', required: true, displayOptions: { show: { authentication: ['basicAuth'] } } }],
  properties: PROPERTIES,
};

export function testNode(parameters: WorkflowNode['parameters'] = {}, extra: Partial<WorkflowNode> = {}): WorkflowNode {
  return { name: 'Everything', type: TYPE.name, typeVersion: 1, position: [0, 0], parameters, ...extra };
}
