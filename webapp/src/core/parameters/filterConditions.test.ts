import { describe, expect, it } from 'vitest';
import {
  filterOperator,
  filterOperators,
  filterOptions,
  newCondition,
  operatorFromKey,
  readAssignments,
  readFilter,
  rightValueFromInput,
  withCondition,
  withOperator,
} from './filterConditions';

describe('filter conditions', () => {
  it('marks operators without a right value and array operators with their right type', () => {
    expect(filterOperator('string', 'exists')).toEqual({ type: 'string', operation: 'exists', singleValue: true });
    expect(filterOperator('boolean', 'true')).toEqual({ type: 'boolean', operation: 'true', singleValue: true });
    expect(filterOperator('array', 'contains')).toEqual({ type: 'array', operation: 'contains', rightType: 'any' });
    expect(filterOperator('array', 'lengthGt')).toEqual({ type: 'array', operation: 'lengthGt', rightType: 'number' });
    expect(filterOperator('number', 'gt')).toEqual({ type: 'number', operation: 'gt' });
  });

  it('lists the operators by type and reads them back from their key', () => {
    const groups = filterOperators();
    expect(groups.map((g) => g.type)).toEqual(['string', 'number', 'dateTime', 'boolean', 'array', 'object']);
    expect(groups.find((g) => g.type === 'dateTime')?.operators.map((o) => o.operation)).toContain('afterOrEquals');
    expect(operatorFromKey('dateTime:before')).toEqual({ type: 'dateTime', operation: 'before' });
    expect(operatorFromKey('number:startsWith')).toBeUndefined();
    expect(operatorFromKey('nonsense')).toBeUndefined();
  });

  it('derives the filter options from the node options', () => {
    expect(filterOptions(undefined)).toEqual({ caseSensitive: true, leftValue: '', typeValidation: 'strict' });
    expect(filterOptions({ ignoreCase: true, looseTypeValidation: true })).toEqual({ caseSensitive: false, leftValue: '', typeValidation: 'loose' });
  });

  it('reads a missing value as an empty AND filter and keeps stored options', () => {
    expect(readFilter(undefined, {})).toEqual({ options: filterOptions({}), conditions: [], combinator: 'and' });
    const stored = { options: { caseSensitive: false }, combinator: 'or', conditions: [newCondition(), 'junk'] };
    const read = readFilter(stored, {});
    expect(read.combinator).toBe('or');
    expect(read.conditions).toHaveLength(1);
    expect(read.options).toEqual({ caseSensitive: false });
  });

  it('replaces one condition and follows the node options', () => {
    const second = newCondition();
    const filter = readFilter({ conditions: [newCondition(), second] }, {});
    const changed = withCondition(filter, 1, { ...second, leftValue: '={{ $json.a }}' }, { ignoreCase: true });
    expect(changed.conditions[0]).toBe(filter.conditions[0]);
    expect(changed.conditions[1]?.leftValue).toBe('={{ $json.a }}');
    expect(changed.options.caseSensitive).toBe(false);
  });

  it('clears the right value for a single-value operator', () => {
    const condition = { ...newCondition(), rightValue: 'x' };
    expect(withOperator(condition, filterOperator('string', 'exists')).rightValue).toBe('');
    expect(withOperator(condition, filterOperator('string', 'contains')).rightValue).toBe('x');
  });

  it('stores typed numbers for numeric right values', () => {
    expect(rightValueFromInput('10', { type: 'number', operation: 'gt' })).toBe(10);
    expect(rightValueFromInput('ten', { type: 'number', operation: 'gt' })).toBe('ten');
    expect(rightValueFromInput('={{ 1 }}', { type: 'number', operation: 'gt' })).toBe('={{ 1 }}');
    expect(rightValueFromInput('2', { type: 'array', operation: 'lengthGt', rightType: 'number' })).toBe(2);
    expect(rightValueFromInput('2', { type: 'string', operation: 'equals' })).toBe('2');
  });
});

describe('assignments', () => {
  it('reads the assignment list, skipping what is not an object', () => {
    expect(readAssignments(undefined)).toEqual([]);
    expect(readAssignments({ assignments: [{ id: '1', name: 'a', value: 'b', type: 'string' }, 3] })).toEqual([{ id: '1', name: 'a', value: 'b', type: 'string' }]);
  });
});
