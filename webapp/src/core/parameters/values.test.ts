import { describe, expect, it } from 'vitest';
import type { NodeProperty } from '@/core/workflow/nodeTypes';
import { clampNumber, fromExpression, parseNumber, toExpression } from './values';

const number: NodeProperty = { displayName: 'N', name: 'n', type: 'number', default: 3, typeOptions: { minValue: 2, maxValue: 5, numberPrecision: 1 } };
const text: NodeProperty = { displayName: 'T', name: 't', type: 'string', default: '' };
const multi: NodeProperty = { displayName: 'M', name: 'm', type: 'multiOptions', default: [], options: [{ name: 'A', value: 'a' }, { name: 'B', value: 'b' }] };
const flag: NodeProperty = { displayName: 'F', name: 'f', type: 'boolean', default: false };

describe('number values', () => {
  it('clamps to min and max and rounds to the precision', () => {
    expect(clampNumber(1, { minValue: 2, maxValue: 5 })).toBe(2);
    expect(clampNumber(9, { minValue: 2, maxValue: 5 })).toBe(5);
    expect(clampNumber(3.14159, { numberPrecision: 2 })).toBe(3.14);
    expect(clampNumber(2.5, { numberPrecision: 0 })).toBe(3);
    expect(clampNumber(-7, {})).toBe(-7);
  });

  it('parses typed text', () => {
    expect(parseNumber(' 4,5 ')).toBe(4.5);
    expect(parseNumber('')).toBeUndefined();
    expect(parseNumber('abc')).toBeUndefined();
  });
});

describe('fixed and expression values', () => {
  it('turns fixed values into expressions as n8n does', () => {
    expect(toExpression('hello', text)).toBe('=hello');
    expect(toExpression(4, number)).toBe('={{4}}');
    expect(toExpression(true, flag)).toBe('={{true}}');
    expect(toExpression(['a', 'b'], multi)).toBe('=a,b');
    expect(toExpression({ a: 1 }, text)).toBe('={{{"a":1}}}');
    expect(toExpression('=already', text)).toBe('=already');
  });

  it('turns expressions back into fixed values, resetting what does not convert', () => {
    expect(fromExpression('=hello {{ $json.x }}', text)).toBe('hello {{ $json.x }}');
    expect(fromExpression('={{4}}', number)).toBe(4);
    expect(fromExpression('={{9}}', number)).toBe(5);
    expect(fromExpression('={{$json.n}}', number)).toBe(3);
    expect(fromExpression('={{$json.n}}', number, { ok: true, value: 4.44 })).toBe(4.4);
    expect(fromExpression('={{true}}', flag)).toBe(true);
    expect(fromExpression('=a,z,b', multi)).toEqual(['a', 'b']);
  });
});
