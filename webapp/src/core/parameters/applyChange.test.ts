import { describe, expect, it } from 'vitest';
import { applyParameterChange } from './applyChange';
import { nodeParametersWithDefaults } from './nodeParameters';
import type { JsonValue } from '@/core/workflow/types';
import { TYPE, testNode } from './testDescription';

describe('applyParameterChange', () => {
  it('stores a changed top-level value and never a default', () => {
    expect(applyParameterChange(testNode(), TYPE, { path: 'parameters.userId', value: '42' })).toEqual({ parameters: { userId: '42' } });
    expect(applyParameterChange(testNode({ userId: '42' }), TYPE, { path: 'parameters.limit', value: 50 })).toEqual({ parameters: { userId: '42' } });
    expect(applyParameterChange(testNode({ limit: 20 }), TYPE, { path: 'parameters.limit', value: undefined })).toEqual({ parameters: {} });
  });

  it('drops values of parameters that are no longer shown', () => {
    const node = testNode({ userId: '42', limit: 20 });
    expect(applyParameterChange(node, TYPE, { path: 'parameters.resource', value: 'team' })).toEqual({ parameters: { resource: 'team', limit: 20 } });
    expect(applyParameterChange(node, TYPE, { path: 'parameters.operation', value: 'create' })).toEqual({ parameters: { operation: 'create' } });
  });

  it('keeps collection options that are set, even with default values, and drops hidden ones', () => {
    const added = applyParameterChange(testNode(), TYPE, { path: 'parameters.options.timeout', value: 10000 });
    expect(added).toEqual({ parameters: { options: { timeout: 10000 } } });
    const node = testNode({ options: { timeout: 5, mode: 'safe', retries: 3 } });
    expect(applyParameterChange(node, TYPE, { path: 'parameters.options.mode', value: 'fast' })).toEqual({ parameters: { options: { timeout: 5, mode: 'fast' } } });
    expect(applyParameterChange(node, TYPE, { path: 'parameters.options.timeout', value: undefined })).toEqual({ parameters: { options: { mode: 'safe', retries: 3 } } });
    expect(applyParameterChange(testNode({ options: { timeout: 5 } }), TYPE, { path: 'parameters.options.timeout', value: undefined })).toEqual({ parameters: {} });
  });

  it('applies `/`-rooted rules inside collections', () => {
    const node = testNode({ resource: 'team', teamName: 't', options: { teamOnly: true } });
    expect(applyParameterChange(node, TYPE, { path: 'parameters.teamName', value: 'u' })).toEqual({ parameters: { resource: 'team', teamName: 'u', options: { teamOnly: true } } });
    expect(applyParameterChange(node, TYPE, { path: 'parameters.resource', value: 'user' })).toEqual({ parameters: {} });
  });

  it('adds, edits, moves and deletes multiple-value items of a fixed collection', () => {
    let node = testNode();
    const apply = (path: string, value: Parameters<typeof applyParameterChange>[2]['value']) => {
      node = { ...node, ...applyParameterChange(node, TYPE, { path, value }) };
      return node.parameters;
    };
    expect(apply('parameters.values.string', [{}])).toEqual({ values: { string: [{}] } });
    expect(apply('parameters.values.string[0].value', 'one')).toEqual({ values: { string: [{ value: 'one' }] } });
    expect(apply('parameters.values.string[1]', { name: 'second' })).toEqual({ values: { string: [{ value: 'one' }, { name: 'second' }] } });
    expect(apply('parameters.values.string[1].kind', 'rich')).toEqual({ values: { string: [{ value: 'one' }, { name: 'second', kind: 'rich' }] } });
    expect(apply('parameters.values.string[1].format', 'md')).toEqual({ values: { string: [{ value: 'one' }, { name: 'second', kind: 'rich', format: 'md' }] } });
    expect(apply('parameters.values.string[1].kind', 'plain')).toEqual({ values: { string: [{ value: 'one' }, { name: 'second' }] } });
    const [first, second] = (node.parameters.values as { string: JsonValue[] }).string;
    expect(apply('parameters.values.string', [second ?? null, first ?? null])).toEqual({ values: { string: [{ name: 'second' }, { value: 'one' }] } });
    expect(apply('parameters.values.string[0]', undefined)).toEqual({ values: { string: [{ value: 'one' }] } });
    expect(apply('parameters.values.string[0]', undefined)).toEqual({});
  });

  it('keeps a single-value fixed collection group even with only defaults', () => {
    expect(applyParameterChange(testNode(), TYPE, { path: 'parameters.body.content', value: {} })).toEqual({ parameters: { body: { content: {} } } });
    expect(applyParameterChange(testNode({ body: { content: { text: 'x' } } }), TYPE, { path: 'parameters.body.content', value: undefined })).toEqual({ parameters: {} });
  });

  it('sets and removes credentials', () => {
    const node = testNode({}, { credentials: { other: { id: '1', name: 'Other' } } });
    expect(applyParameterChange(node, TYPE, { path: 'credentials.testBasicAuth', value: { id: '7', name: 'Mine' } })).toEqual({
      credentials: { other: { id: '1', name: 'Other' }, testBasicAuth: { id: '7', name: 'Mine' } },
    });
    expect(applyParameterChange(node, TYPE, { path: 'credentials.other', value: undefined })).toEqual({ credentials: undefined });
  });

  it('stores settings only when they differ from their defaults', () => {
    expect(applyParameterChange(testNode(), TYPE, { path: 'retryOnFail', value: true })).toEqual({ retryOnFail: true });
    expect(applyParameterChange(testNode(), TYPE, { path: 'maxTries', value: 3 })).toEqual({ maxTries: undefined });
    expect(applyParameterChange(testNode(), TYPE, { path: 'notes', value: '' })).toEqual({ notes: undefined });
    expect(applyParameterChange(testNode(), TYPE, { path: 'unknown', value: 1 })).toEqual({});
  });

  it('keeps parameters as they are when the type is unknown', () => {
    expect(applyParameterChange(testNode({ a: 1 }), undefined, { path: 'parameters.b', value: 2 })).toEqual({ parameters: { a: 1, b: 2 } });
  });
});

describe('nodeParametersWithDefaults', () => {
  it('fills in defaults of shown parameters, at top level and inside fixed collection items', () => {
    const values = nodeParametersWithDefaults(TYPE, { values: { string: [{ kind: 'rich' }] }, options: { mode: 'safe' } }, 1);
    expect(values).toEqual({
      authentication: 'none',
      resource: 'user',
      operation: 'get',
      userId: '',
      limit: 50,
      secret: 'x',
      tags: [],
      zone: '',
      options: { mode: 'safe' },
      values: { string: [{ name: 'propertyName', value: '', kind: 'rich', format: 'html' }] },
      body: {},
    });
    expect(nodeParametersWithDefaults(TYPE, {}, 2).v2Only).toBe(false);
  });
});
