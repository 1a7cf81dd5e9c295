import { describe, expect, it } from 'vitest';
import { nodeIssues, workflowIssues } from '@/core/workflow/nodeIssues';
import type { NodeTypeDescription } from '@/core/workflow/nodeTypes';
import { matchCredential, matchNodeCredentials } from './credentials';
import { TYPE, testNode } from './testDescription';

describe('parameter issues', () => {
  it('reports required parameters on every nesting level', () => {
    const node = testNode({ userId: 'u', options: { proxy: '' }, values: { string: [{ name: 'a' }, { name: '' }] } });
    expect(nodeIssues(node, TYPE)).toEqual([
      { kind: 'parameters', parameter: 'options.proxy', displayName: 'Proxy' },
      { kind: 'parameters', parameter: 'values.string[1].name', displayName: 'Name' },
    ]);
  });

  it('checks only shown parameters and collection options that are set', () => {
    expect(nodeIssues(testNode({ userId: 'u' }), TYPE)).toEqual([]);
    expect(nodeIssues(testNode({ resource: 'team' }), TYPE)).toEqual([{ kind: 'parameters', parameter: 'teamName', displayName: 'Team Name' }]);
  });

  it('reports option values that are not in the list, except custom API calls, expressions and remote options', () => {
    expect(nodeIssues(testNode({ userId: 'u', operation: 'delete', tags: ['a', 'z'] }), TYPE)).toEqual([
      { kind: 'optionNotSupported', parameter: 'operation', displayName: 'Operation', value: 'delete' },
      { kind: 'optionNotSupported', parameter: 'tags', displayName: 'Tags', value: 'z' },
    ]);
    expect(nodeIssues(testNode({ userId: 'u', operation: '__CUSTOM_API_CALL__' }), TYPE)).toEqual([]);
    expect(nodeIssues(testNode({ userId: 'u', operation: '={{"x"}}', zone: 'anything' }), TYPE)).toEqual([]);
    expect(nodeIssues(testNode({ userId: 'u', values: { string: [{ kind: 'odd' }] } }), TYPE)).toEqual([
      { kind: 'optionNotSupported', parameter: 'values.string[0].kind', displayName: 'Kind', value: 'odd' },
    ]);
  });
});

describe('credential issues', () => {
  const known = [
    { id: '1', name: 'Mine', type: 'testBasicAuth' },
    { id: '2', name: 'Twice', type: 'testBasicAuth' },
    { id: '3', name: 'Twice', type: 'testBasicAuth' },
    { id: '4', name: 'Elsewhere', type: 'otherApi' },
  ];
  const withAuth = (credential?: unknown) => testNode({ userId: 'u', authentication: 'basicAuth' }, credential === undefined ? {} : { credentials: { testBasicAuth: credential as never } });

  it('reports a shown required credential that is not set', () => {
    expect(nodeIssues(withAuth(), TYPE)).toEqual([{ kind: 'credentials', credential: 'testBasicAuth' }]);
    expect(nodeIssues(testNode({ userId: 'u' }), TYPE)).toEqual([]);
  });

  it('matches by id, else by a unique name, when the known credentials are given', () => {
    expect(nodeIssues(withAuth({ id: '1', name: 'Renamed' }), TYPE, known)).toEqual([]);
    expect(nodeIssues(withAuth({ id: null, name: 'Mine' }), TYPE, known)).toEqual([]);
    expect(nodeIssues(withAuth('Mine'), TYPE, known)).toEqual([]);
    expect(nodeIssues(withAuth({ id: null, name: 'Elsewhere' }), TYPE, known)).toEqual([{ kind: 'credentialsNotFound', credential: 'testBasicAuth', name: 'Elsewhere' }]);
    expect(nodeIssues(withAuth({ id: '9', name: 'Twice' }), TYPE, known)).toEqual([{ kind: 'credentialsAmbiguous', credential: 'testBasicAuth', name: 'Twice' }]);
    expect(nodeIssues(withAuth({ id: '9', name: 'Gone' }), TYPE)).toEqual([]);
    expect(matchCredential({ id: null, name: 'Mine' }, known, 'testBasicAuth')).toEqual({ status: 'found', credential: known[0] });
  });

  it('requires the credential type chosen in a credentials select, and a choice', () => {
    const http: NodeTypeDescription = {
      ...TYPE,
      credentials: [],
      properties: [
        { displayName: 'Authentication', name: 'authentication', type: 'options', default: 'none', options: [{ name: 'None', value: 'none' }, { name: 'Generic', value: 'genericCredentialType' }] },
        { displayName: 'Generic Auth Type', name: 'genericAuthType', type: 'credentialsSelect', default: '', required: true, displayOptions: { show: { authentication: ['genericCredentialType'] } } },
      ],
    };
    const node = (parameters: Record<string, string>, credentials?: Record<string, { id: string; name: string }>) => testNode(parameters, { credentials });
    expect(nodeIssues(node({}), http)).toEqual([]);
    expect(nodeIssues(node({ authentication: 'genericCredentialType' }), http)).toEqual([{ kind: 'credentialTypeNotSelected', parameter: 'genericAuthType', displayName: 'Generic Auth Type' }]);
    expect(nodeIssues(node({ authentication: 'genericCredentialType', genericAuthType: 'httpBasicAuth' }), http)).toEqual([{ kind: 'credentials', credential: 'httpBasicAuth' }]);
    expect(nodeIssues(node({ authentication: 'genericCredentialType', genericAuthType: 'httpBasicAuth' }, { httpBasicAuth: { id: '1', name: 'b' } }), http)).toEqual([]);
  });

  it('passes the known credentials through workflowIssues only once the full descriptions are loaded', () => {
    const index = { forNode: () => TYPE };
    const nodes = [withAuth({ id: null, name: 'Nope' })];
    expect(workflowIssues(nodes, index, index, known).get('Everything')).toEqual([{ kind: 'credentialsNotFound', credential: 'testBasicAuth', name: 'Nope' }]);
    expect(workflowIssues(nodes, index, null, known).size).toBe(0);
  });
});

describe('credential references on load', () => {
  const known = [
    { id: '1', name: 'Orders', type: 'httpBasicAuth' },
    { id: '2', name: 'Twice', type: 'httpBasicAuth' },
    { id: '3', name: 'Twice', type: 'httpBasicAuth' },
  ];
  const loaded = (credentials: Record<string, unknown>) =>
    matchNodeCredentials([{ ...testNode({}), credentials: credentials as never }], known)[0]?.credentials;

  it('turns names into references and matches them by id, else by a unique name', () => {
    expect(loaded({ httpBasicAuth: 'Orders' })).toEqual({ httpBasicAuth: { id: '1', name: 'Orders' } });
    expect(loaded({ httpBasicAuth: { id: '1', name: 'Old name' } })).toEqual({ httpBasicAuth: { id: '1', name: 'Orders' } });
    expect(loaded({ httpBasicAuth: { id: '9', name: 'Twice' } })).toEqual({ httpBasicAuth: { id: '9', name: 'Twice' } });
    expect(loaded({ httpBasicAuth: { id: null, name: 'Nobody' } })).toEqual({ httpBasicAuth: { id: null, name: 'Nobody' } });
    expect(matchNodeCredentials([{ ...testNode({}), credentials: { httpBasicAuth: 'Orders' as never } }], null)[0]?.credentials).toEqual({ httpBasicAuth: { id: null, name: 'Orders' } });
  });
});
