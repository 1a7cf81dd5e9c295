import { describe, expect, it } from 'vitest';
import { isDisplayed, nodeIssues } from './nodeIssues';
import type { NodeTypeDescription } from './nodeTypes';
import type { WorkflowNode } from './types';

const type: NodeTypeDescription = {
  name: 'n8n-nodes-base.httpRequest',
  displayName: 'HTTP Request',
  group: ['output'],
  version: 2,
  defaults: { name: 'HTTP Request' },
  inputs: ['main'],
  outputs: ['main'],
  credentials: [{ name: 'httpBasicAuth', required: true, displayOptions: { show: { authentication: ['basicAuth'] } } }],
  properties: [
    { name: 'authentication', displayName: 'Authentication', type: 'options', default: 'none' },
    { name: 'url', displayName: 'URL', type: 'string', default: '', required: true },
    { name: 'body', displayName: 'Body', type: 'string', default: '', required: true, displayOptions: { show: { method: ['POST'] } } },
    { name: 'method', displayName: 'Method', type: 'options', default: 'GET' },
    { name: 'note', displayName: 'Note', type: 'notice', default: '', required: true },
  ],
};

function node(parameters: WorkflowNode['parameters'], extra: Partial<WorkflowNode> = {}): WorkflowNode {
  return { name: 'HTTP Request', type: type.name, typeVersion: 2, position: [0, 0], parameters, ...extra };
}

describe('node issues', () => {
  it('reports shown required parameters that are empty', () => {
    expect(nodeIssues(node({}), type)).toEqual([{ kind: 'parameters', parameter: 'url', displayName: 'URL' }]);
    expect(nodeIssues(node({ url: 'https://x', method: 'POST' }), type)).toEqual([{ kind: 'parameters', parameter: 'body', displayName: 'Body' }]);
    expect(nodeIssues(node({ url: 'https://x' }), type)).toEqual([]);
  });

  it('reports required credentials only when shown and unset', () => {
    expect(nodeIssues(node({ url: 'u', authentication: 'basicAuth' }), type)).toEqual([{ kind: 'credentials', credential: 'httpBasicAuth' }]);
    expect(nodeIssues(node({ url: 'u', authentication: 'basicAuth' }, { credentials: { httpBasicAuth: { id: '1', name: 'a' } } }), type)).toEqual([]);
  });

  it('reports every credential issue: unmatched name, ambiguous name, generic type unset, type select empty', () => {
    const known = [
      { id: '1', name: 'shared', type: 'httpBasicAuth' },
      { id: '2', name: 'shared', type: 'httpBasicAuth' },
      { id: '3', name: 'solo', type: 'httpBasicAuth' },
    ];
    const basic = { url: 'u', authentication: 'basicAuth' };
    // Older workflows store a credential as its name alone.
    const byName = (name: string) => ({ httpBasicAuth: name }) as unknown as WorkflowNode['credentials'];
    expect(nodeIssues(node(basic, { credentials: byName('missing') }), type, known)).toEqual([{ kind: 'credentialsNotFound', credential: 'httpBasicAuth', name: 'missing' }]);
    expect(nodeIssues(node(basic, { credentials: { httpBasicAuth: { id: null, name: 'shared' } } }), type, known)).toEqual([{ kind: 'credentialsAmbiguous', credential: 'httpBasicAuth', name: 'shared' }]);
    // A unique name is matched (and, until the list loads, nothing is reported).
    expect(nodeIssues(node(basic, { credentials: byName('solo') }), type, known)).toEqual([]);
    expect(nodeIssues(node(basic, { credentials: byName('missing') }), type)).toEqual([]);

    const generic: NodeTypeDescription = {
      ...type,
      credentials: [],
      properties: [
        { name: 'authentication', displayName: 'Authentication', type: 'options', default: 'none' },
        { name: 'genericAuthType', displayName: 'Generic Auth Type', type: 'credentialsSelect', default: '', required: true, displayOptions: { show: { authentication: ['genericCredentialType'] } } },
      ],
    };
    expect(nodeIssues(node({ authentication: 'genericCredentialType' }), generic)).toEqual([{ kind: 'credentialTypeNotSelected', parameter: 'genericAuthType', displayName: 'Generic Auth Type' }]);
    expect(nodeIssues(node({ authentication: 'genericCredentialType', genericAuthType: 'httpHeaderAuth' }), generic)).toEqual([{ kind: 'credentials', credential: 'httpHeaderAuth' }]);
  });

  it('has no issues when disabled and one when the type is unknown', () => {
    expect(nodeIssues(node({}, { disabled: true }), type)).toEqual([]);
    expect(nodeIssues(node({}), undefined)).toEqual([{ kind: 'typeUnknown' }]);
  });

  it('checks a parameters object once per description and version, and credentials on every call', () => {
    const parameters = { url: 'u', authentication: 'basicAuth' };
    const calls = { count: 0 };
    const counted: NodeTypeDescription = {
      ...type,
      properties: (type.properties ?? []).map((property) =>
        property.name === 'url'
          ? Object.defineProperty({ ...property }, 'required', {
              get: () => {
                calls.count += 1;
                return true;
              },
            })
          : property,
      ),
    };
    const unset = node(parameters);
    const set = node(parameters, { credentials: { httpBasicAuth: { id: '1', name: 'a' } } });
    expect(nodeIssues(unset, counted)).toEqual([{ kind: 'credentials', credential: 'httpBasicAuth' }]);
    const afterFirst = calls.count;
    expect(afterFirst).toBeGreaterThan(0);
    // Same parameters object: the parameter check is reused, the credential check still runs.
    expect(nodeIssues(set, counted)).toEqual([]);
    expect(nodeIssues(set, counted, [])).toEqual([{ kind: 'credentialsNotFound', credential: 'httpBasicAuth', name: 'a' }]);
    expect(calls.count).toBe(afterFirst);
    // An edit makes a new parameters object, which is checked afresh.
    expect(nodeIssues(node({ ...parameters, url: '' }), counted)).toEqual([
      { kind: 'parameters', parameter: 'url', displayName: 'URL' },
      { kind: 'credentials', credential: 'httpBasicAuth' },
    ]);
    const afterEdit = calls.count;
    expect(afterEdit).toBeGreaterThan(afterFirst);
    // Another type version is another check.
    nodeIssues(node(parameters, { typeVersion: 1 }), counted);
    const afterVersion = calls.count;
    expect(afterVersion).toBeGreaterThan(afterEdit);
    // Another node with the same settings shares the check.
    expect(nodeIssues(node({ url: 'u', authentication: 'basicAuth' }), counted)).toEqual([{ kind: 'credentials', credential: 'httpBasicAuth' }]);
    expect(calls.count).toBe(afterVersion);
  });

  it('evaluates show and hide rules, root paths and the version', () => {
    expect(isDisplayed({ show: { '/mode': ['a'] } }, { mode: 'a' }, 1)).toBe(true);
    expect(isDisplayed({ hide: { mode: ['a'] } }, { mode: 'a' }, 1)).toBe(false);
    expect(isDisplayed({ show: { '@version': [2] } }, {}, 1)).toBe(false);
    expect(isDisplayed({ show: { flag: [true] } }, { flag: true }, 1)).toBe(true);
  });
});

describe('workflow issues', () => {
  it('collects issues by node and skips sticky notes and parameter checks until details load', async () => {
    const { workflowIssues, issueKey } = await import('./nodeIssues');
    const list = { forNode: (n: WorkflowNode) => (n.type === type.name ? { ...type, properties: undefined } : undefined) };
    const details = { forNode: (n: WorkflowNode) => (n.type === type.name ? type : undefined) };
    const nodes = [node({}), { ...node({}), name: 'Odd', type: 'x.unknown' }, { ...node({}), name: 'Note', type: 'n8n-nodes-base.stickyNote' }];
    expect([...workflowIssues(nodes, list, null).entries()]).toEqual([['Odd', [{ kind: 'typeUnknown' }]]]);
    const full = workflowIssues(nodes, list, details);
    expect(full.get('HTTP Request')?.map(issueKey)).toEqual(['parameters:URL']);
  });
});
