import { describe, expect, it } from 'vitest';
import { nodeEndpoints } from './nodeEndpoints';
import type { NodeProperty, NodeTypeDescription } from './nodeTypes';
import type { JsonObject } from './types';

const MAIN4 = ['main', 'main', 'main', 'main'];

function describeType(name: string, version: number, properties: NodeProperty[], extra: Partial<NodeTypeDescription> = {}): NodeTypeDescription {
  return { name: `n8n-nodes-base.${name}`, displayName: name, group: ['transform'], version, defaults: { name }, inputs: ['main'], outputs: MAIN4, properties, ...extra };
}

const mode = (values: string[], fallback: string): NodeProperty => ({ displayName: 'Mode', name: 'mode', type: 'options', default: fallback, options: values.map((value) => ({ name: value, value })) });

// Switch 3 as its description has it: rules of filter conditions, an output name each, options.
const switch3 = describeType('switch', 3, [
  mode(['rules', 'expression'], 'rules'),
  { displayName: 'Number of Outputs', name: 'numberOutputs', type: 'number', default: 4, displayOptions: { show: { mode: ['expression'] } } },
  {
    displayName: 'Routing Rules',
    name: 'rules',
    type: 'fixedCollection',
    typeOptions: { multipleValues: true },
    default: { values: [{ conditions: {} }] },
    displayOptions: { show: { mode: ['rules'] } },
    options: [
      {
        name: 'values',
        displayName: 'Values',
        values: [
          { displayName: 'Conditions', name: 'conditions', type: 'filter', default: {} },
          { displayName: 'Rename Output', name: 'renameOutput', type: 'boolean', default: false },
          { displayName: 'Output Name', name: 'outputKey', type: 'string', default: '', displayOptions: { show: { renameOutput: [true] } } },
        ],
      },
    ],
  },
  {
    displayName: 'Options',
    name: 'options',
    type: 'collection',
    default: {},
    displayOptions: { show: { mode: ['rules'] } },
    options: [
      { displayName: 'Fallback Output', name: 'fallbackOutput', type: 'options', default: 'none' },
      { displayName: 'Rename Fallback Output', name: 'renameFallbackOutput', type: 'string', default: '', displayOptions: { show: { fallbackOutput: ['extra'] } } },
    ],
  },
]);

const switch2 = describeType('switch', 2, [
  mode(['expression', 'rules'], 'rules'),
  { displayName: 'Outputs Amount', name: 'outputsAmount', type: 'number', default: 4, displayOptions: { show: { mode: ['expression'] } } },
  {
    displayName: 'Routing Rules',
    name: 'rules',
    type: 'fixedCollection',
    typeOptions: { multipleValues: true },
    default: {},
    displayOptions: { show: { mode: ['rules'] } },
    options: [{ name: 'rules', displayName: 'Numbers', values: [{ displayName: 'Output Key', name: 'outputKey', type: 'string', default: '' }] }],
  },
]);

const switch1 = describeType('switch', 1, [mode(['expression', 'rules'], 'rules')], { outputNames: ['0', '1', '2', '3'] });

const merge3 = describeType(
  'merge',
  3,
  [
    mode(['append', 'combine', 'chooseBranch'], 'append'),
    { displayName: 'Number of Inputs', name: 'numberInputs', type: 'options', default: 2, displayOptions: { show: { mode: ['append'] } } },
    { displayName: 'Number of Inputs', name: 'numberInputs', type: 'options', default: 2, displayOptions: { show: { mode: ['chooseBranch'] } } },
  ],
  { inputs: ['main', 'main'], outputs: ['main'], inputNames: ['Input 1', 'Input 2'] },
);

const node = (type: NodeTypeDescription, parameters: JsonObject) => ({ type: type.name, typeVersion: type.version as number, parameters });
const rule = (extra: JsonObject = {}): JsonObject => ({ conditions: {}, ...extra });

describe('nodeEndpoints', () => {
  it('gives Switch 3 one output per rule', () => {
    const endpoints = nodeEndpoints(switch3, node(switch3, { rules: { values: [rule(), rule()] } }));
    expect(endpoints.outputs).toBe(2);
    expect(endpoints.outputNames).toEqual(['0', '1']);
  });

  it('gives a new Switch 3 the one rule of its defaults', () => {
    expect(nodeEndpoints(switch3, node(switch3, {})).outputs).toBe(1);
  });

  it('adds the fallback output of Switch 3 when it is extra, with its name', () => {
    const parameters = { rules: { values: [rule(), rule()] }, options: { fallbackOutput: 'extra' } };
    expect(nodeEndpoints(switch3, node(switch3, parameters)).outputNames).toEqual(['0', '1', 'Fallback']);
    const renamed = { ...parameters, options: { fallbackOutput: 'extra', renameFallbackOutput: 'Other' } };
    expect(nodeEndpoints(switch3, node(switch3, renamed)).outputNames).toEqual(['0', '1', 'Other']);
    // Sending unmatched items to a rule's output adds none.
    expect(nodeEndpoints(switch3, node(switch3, { ...parameters, options: { fallbackOutput: 1 } })).outputs).toBe(2);
  });

  it('labels Switch 3 outputs with the renamed rules only', () => {
    const parameters = { rules: { values: [rule({ renameOutput: true, outputKey: 'Big' }), rule({ outputKey: 'ignored' }), rule({ renameOutput: true, outputKey: '' })] } };
    expect(nodeEndpoints(switch3, node(switch3, parameters)).outputNames).toEqual(['Big', '1', '2']);
  });

  it('gives Switch 3 in expression mode its number of outputs', () => {
    expect(nodeEndpoints(switch3, node(switch3, { mode: 'expression', numberOutputs: 6 })).outputNames).toEqual(['0', '1', '2', '3', '4', '5']);
    expect(nodeEndpoints(switch3, node(switch3, { mode: 'expression' })).outputs).toBe(4);
    // A count given by an expression is known only at run time: the description's outputs stay.
    expect(nodeEndpoints(switch3, node(switch3, { mode: 'expression', numberOutputs: '={{ 2 + 1 }}' })).outputs).toBe(4);
    expect(nodeEndpoints(switch3, node(switch3, { mode: 'expression', numberOutputs: 1000 })).outputs).toBe(64);
  });

  it('gives Switch 2 one output per rule, labelled with its output key', () => {
    const parameters: JsonObject = { rules: { rules: [{ outputKey: 'a' }, {}, { outputKey: 'c' }] } };
    expect(nodeEndpoints(switch2, node(switch2, parameters)).outputNames).toEqual(['a', '1', 'c']);
    expect(nodeEndpoints(switch2, node(switch2, { mode: 'expression', outputsAmount: 2 })).outputs).toBe(2);
  });

  it('keeps the four fixed outputs of Switch 1', () => {
    const endpoints = nodeEndpoints(switch1, node(switch1, { rules: { rules: [{ output: 0 }] } }));
    expect(endpoints.outputs).toBe(4);
    expect(endpoints.outputNames).toEqual(['0', '1', '2', '3']);
  });

  it('gives Merge 3 numberInputs inputs where its mode shows the parameter', () => {
    expect(nodeEndpoints(merge3, node(merge3, {}))).toMatchObject({ inputs: 2, inputNames: ['Input 1', 'Input 2'], outputs: 1 });
    expect(nodeEndpoints(merge3, node(merge3, { numberInputs: 3 }))).toMatchObject({ inputs: 3, inputNames: ['Input 1', 'Input 2', 'Input 3'] });
    expect(nodeEndpoints(merge3, node(merge3, { mode: 'chooseBranch', numberInputs: 4 })).inputs).toBe(4);
    // Combining by fields has no numberInputs: two inputs.
    expect(nodeEndpoints(merge3, node(merge3, { mode: 'combine', numberInputs: 4 })).inputs).toBe(2);
  });

  it('reads the version-scoped parameters of Switch 3.3 and later', () => {
    // From 3.3 the number of outputs is its own parameter (no expressions); earlier versions keep theirs.
    const fixedCount: NodeProperty = { displayName: 'Number of Outputs', name: 'numberOutputs', type: 'number', noDataExpression: true, default: 4, displayOptions: { show: { mode: ['expression'], '@version': [3.3, 3.4] } } };
    const properties = (switch3.properties ?? []).flatMap((p) =>
      p.name === 'numberOutputs' ? [fixedCount, { ...p, displayOptions: { show: { mode: ['expression'], '@version': [3, 3.1, 3.2] } } }] : [p],
    );
    const switch34 = { ...switch3, version: [3, 3.1, 3.2, 3.3, 3.4], properties };
    for (const typeVersion of [3.2, 3.4]) {
      const at = (parameters: JsonObject) => ({ type: switch34.name, typeVersion, parameters });
      expect(nodeEndpoints(switch34, at({ mode: 'expression', numberOutputs: 3 })).outputNames).toEqual(['0', '1', '2']);
      expect(nodeEndpoints(switch34, at({ mode: 'expression' })).outputs).toBe(4);
      expect(nodeEndpoints(switch34, at({ rules: { values: [rule(), rule()] }, options: { fallbackOutput: 'extra' } })).outputNames).toEqual(['0', '1', 'Fallback']);
    }
  });

  it('gives Merge 3.2 in SQL Query mode numberInputs inputs', () => {
    const merge32 = {
      ...merge3,
      version: [3, 3.1, 3.2],
      properties: [
        mode(['append', 'combine', 'combineBySql', 'chooseBranch'], 'append'),
        ...(merge3.properties ?? []).slice(1),
        { displayName: 'Number of Inputs', name: 'numberInputs', type: 'options', default: 2, displayOptions: { show: { mode: ['combineBySql'] } } } satisfies NodeProperty,
      ],
    };
    const at = (parameters: JsonObject) => ({ type: merge32.name, typeVersion: 3.2, parameters });
    expect(nodeEndpoints(merge32, at({ mode: 'combineBySql', numberInputs: 5 })).inputs).toBe(5);
    expect(nodeEndpoints(merge32, at({ mode: 'combineBySql' })).inputs).toBe(2);
  });

  it('keeps the description of other types', () => {
    const merge2 = { ...merge3, version: 2 };
    expect(nodeEndpoints(merge2, node(merge2, { numberInputs: 5 })).inputs).toBe(2);
  });
});

describe('Webhook endpoints', () => {
  const methods = [{ name: 'GET', value: 'GET' }, { name: 'POST', value: 'POST' }, { name: 'PUT', value: 'PUT' }];
  const webhook2 = describeType('webhook', 2, [
    { displayName: 'Allow Multiple HTTP Methods', name: 'multipleMethods', type: 'boolean', default: false },
    { displayName: 'HTTP Method', name: 'httpMethod', type: 'options', default: 'GET', options: methods, displayOptions: { show: { multipleMethods: [false] } } },
    { displayName: 'HTTP Methods', name: 'httpMethod', type: 'multiOptions', default: ['GET', 'POST'], options: methods, displayOptions: { show: { multipleMethods: [true] } } },
  ], { inputs: [], outputs: ['main'] });
  const node = (parameters: JsonObject, typeVersion = 2) => ({ type: 'n8n-nodes-base.webhook', typeVersion, parameters });

  it('has one output per method when it listens to several', () => {
    expect(nodeEndpoints(webhook2, node({ multipleMethods: true, httpMethod: ['PUT', 'GET', 'POST'] }))).toMatchObject({ outputs: 3, outputNames: ['PUT', 'GET', 'POST'] });
    expect(nodeEndpoints(webhook2, node({ multipleMethods: true }))).toMatchObject({ outputs: 2, outputNames: ['GET', 'POST'] });
  });

  it('has the one output of its description otherwise', () => {
    expect(nodeEndpoints(webhook2, node({ httpMethod: 'POST' }))).toMatchObject({ outputs: 1, outputNames: [] });
  });
});

describe('Respond to Webhook endpoints', () => {
  const respond = (version: number) =>
    describeType('respondToWebhook', version, [{ displayName: 'Enable Response Output Branch', name: 'enableResponseOutput', type: 'boolean', default: false }], {
      outputs: ['main'],
    });
  const node = (version: number, parameters: JsonObject = {}) => ({ type: 'n8n-nodes-base.respondToWebhook', typeVersion: version, parameters });

  it('adds the response output in 1.3, and from 1.4 when asked', () => {
    expect(nodeEndpoints(respond(1.1), node(1.1))).toMatchObject({ outputs: 1 });
    expect(nodeEndpoints(respond(1.3), node(1.3))).toMatchObject({ outputs: 2, outputNames: ['Input Data', 'Response'] });
    expect(nodeEndpoints(respond(1.4), node(1.4))).toMatchObject({ outputs: 1 });
    expect(nodeEndpoints(respond(1.4), node(1.4, { enableResponseOutput: true }))).toMatchObject({ outputs: 2 });
  });
});
