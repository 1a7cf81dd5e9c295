import { describe, expect, it } from 'vitest';
import type { NodeProperty } from '@/core/workflow/nodeTypes';
import { asNodeError, nodeErrorMessage, parameterDisplayPath } from './errorMessage';

const properties: NodeProperty[] = [
  { name: 'url', displayName: 'URL', type: 'string' },
  {
    name: 'options',
    displayName: 'Options',
    type: 'collection',
    options: [{ name: 'timeout', displayName: 'Timeout', type: 'number' } as never],
  },
  {
    name: 'values',
    displayName: 'Values to Set',
    type: 'fixedCollection',
    options: [{ name: 'string', displayName: 'String', values: [{ name: 'value', displayName: 'Value', type: 'string' }] }],
  },
];

const notFound = (path: string) => `Could not find parameter "${path}"`;

describe('error message templates', () => {
  it('names parameters by their display-name path', () => {
    expect(parameterDisplayPath(properties, 'url')).toBe('URL');
    expect(parameterDisplayPath(properties, 'options.timeout')).toBe('Options > Timeout');
    expect(parameterDisplayPath(properties, 'values.string[0].value')).toBe('Values to Set > String > Value');
    expect(parameterDisplayPath(properties, 'missing')).toBeNull();
    expect(parameterDisplayPath(properties, 'options.missing')).toBeNull();
  });

  it('fills the template placeholder with the parameter path', () => {
    const error = { message: 'raw', context: { messageTemplate: 'Invalid value in "%%PARAMETER%%"', parameter: 'options.timeout' } };
    expect(nodeErrorMessage(error, properties, notFound)).toBe('Invalid value in "Options > Timeout"');
    const braces = { message: 'raw', context: { messageTemplate: 'Problem in {{parameter}}', parameter: 'url' } };
    expect(nodeErrorMessage(braces, properties, notFound)).toBe('Problem in URL');
  });

  it('says when the parameter cannot be found, and uses the message without a template', () => {
    const error = { message: 'raw', context: { messageTemplate: 'Bad %%PARAMETER%%', parameter: 'nope.deep' } };
    expect(nodeErrorMessage(error, properties, notFound)).toBe('Bad Could not find parameter "nope.deep"');
    expect(nodeErrorMessage({ message: 'Plain failure' }, properties, notFound)).toBe('Plain failure');
  });

  it('reads a run error without trusting its shape', () => {
    expect(asNodeError(undefined)).toBeNull();
    expect(asNodeError({ message: 5, context: 'x' })).toEqual({ message: '', context: undefined });
    expect(asNodeError({ message: 'm', httpCode: '404' })).toMatchObject({ message: 'm', httpCode: '404' });
  });
});
