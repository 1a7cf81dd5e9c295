import type { JsonObject, JsonValue } from '@/core/workflow/types';

/**
 * n8n 1.x's filter-conditions (`filter`) and assignment-collection (`assignmentCollection`)
 * parameter values: the operator catalogue and how conditions and assignments are created and
 * changed. The components in the node panel only render these.
 */

export type FilterType = 'string' | 'number' | 'dateTime' | 'boolean' | 'array' | 'object';

export interface FilterOperator {
  type: FilterType;
  operation: string;
  /** The operator needs no right value. */
  singleValue?: boolean;
  /** Type of the right value when it differs from the left one. */
  rightType?: 'any' | 'number';
}

export const FILTER_TYPES: readonly FilterType[] = ['string', 'number', 'dateTime', 'boolean', 'array', 'object'];

const existence = ['exists', 'notExists'];
const emptiness = ['empty', 'notEmpty'];
const OPERATIONS: Record<FilterType, readonly string[]> = {
  string: [...existence, ...emptiness, 'equals', 'notEquals', 'contains', 'notContains', 'startsWith', 'notStartsWith', 'endsWith', 'notEndsWith', 'regex', 'notRegex'],
  number: [...existence, 'equals', 'notEquals', 'gt', 'lt', 'gte', 'lte'],
  dateTime: [...existence, 'equals', 'notEquals', 'after', 'before', 'afterOrEquals', 'beforeOrEquals'],
  boolean: [...existence, 'true', 'false', 'equals', 'notEquals'],
  array: [...existence, ...emptiness, 'contains', 'notContains', 'lengthEquals', 'lengthNotEquals', 'lengthGt', 'lengthLt', 'lengthGte', 'lengthLte'],
  object: [...existence, ...emptiness],
};

const SINGLE_VALUE = new Set(['exists', 'notExists', 'empty', 'notEmpty', 'true', 'false']);

/** The operator of a type and operation, with singleValue and rightType as n8n stores them. */
export function filterOperator(type: FilterType, operation: string): FilterOperator {
  const operator: FilterOperator = { type, operation };
  if (SINGLE_VALUE.has(operation)) operator.singleValue = true;
  if (type === 'array' && (operation === 'contains' || operation === 'notContains')) operator.rightType = 'any';
  if (type === 'array' && operation.startsWith('length')) operator.rightType = 'number';
  return operator;
}

/** Every operator, grouped by type in n8n's order. */
export function filterOperators(): { type: FilterType; operators: FilterOperator[] }[] {
  return FILTER_TYPES.map((type) => ({ type, operators: OPERATIONS[type].map((operation) => filterOperator(type, operation)) }));
}

/** `type:operation`, the key of an operator in selects. */
export function operatorKey(operator: { type: string; operation: string }): string {
  return `${operator.type}:${operator.operation}`;
}

export function operatorFromKey(key: string): FilterOperator | undefined {
  const [type, operation] = key.split(':');
  if (!type || !operation || !FILTER_TYPES.includes(type as FilterType)) return undefined;
  if (!OPERATIONS[type as FilterType].includes(operation)) return undefined;
  return filterOperator(type as FilterType, operation);
}

export interface FilterCondition extends JsonObject {
  id: string;
  leftValue: JsonValue;
  rightValue: JsonValue;
  operator: JsonObject;
}

export interface FilterValue extends JsonObject {
  conditions: FilterCondition[];
  combinator: 'and' | 'or';
  options: JsonObject;
}

function newId(): string {
  return globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A new condition: string "is equal to", empty operands. */
export function newCondition(): FilterCondition {
  return { id: newId(), leftValue: '', rightValue: '', operator: { ...filterOperator('string', 'equals') } };
}

/**
 * The filter options n8n derives from the node's own options: case sensitive unless Ignore
 * Case is on, strict type validation unless Less Strict Type Validation is on.
 */
export function filterOptions(nodeOptions: JsonValue | undefined): JsonObject {
  const options = isObject(nodeOptions) ? nodeOptions : {};
  return { caseSensitive: options.ignoreCase !== true, leftValue: '', typeValidation: options.looseTypeValidation === true ? 'loose' : 'strict' };
}

/** Reads a stored value; a missing or partial one becomes an empty "and" filter. */
export function readFilter(value: JsonValue | undefined, nodeOptions: JsonValue | undefined): FilterValue {
  const stored = isObject(value) ? value : {};
  const conditions = Array.isArray(stored.conditions) ? stored.conditions.filter(isObject).map((c) => c as FilterCondition) : [];
  return {
    options: isObject(stored.options) ? stored.options : filterOptions(nodeOptions),
    conditions,
    combinator: stored.combinator === 'or' ? 'or' : 'and',
  };
}

/** The filter with one condition replaced; the options follow the node's options. */
export function withCondition(filter: FilterValue, index: number, condition: FilterCondition, nodeOptions: JsonValue | undefined): FilterValue {
  const conditions = filter.conditions.map((c, i) => (i === index ? condition : c));
  return { ...filter, conditions, options: { ...filter.options, ...filterOptions(nodeOptions) } };
}

/** A condition with a new operator; a single-value operator clears the right value. */
export function withOperator(condition: FilterCondition, operator: FilterOperator): FilterCondition {
  return { ...condition, operator: { ...operator }, rightValue: operator.singleValue ? '' : condition.rightValue };
}

export type AssignmentType = 'string' | 'number' | 'boolean' | 'array' | 'object';
export const ASSIGNMENT_TYPES: readonly AssignmentType[] = ['string', 'number', 'boolean', 'array', 'object'];

export interface Assignment extends JsonObject {
  id: string;
  name: string;
  value: JsonValue;
  type: AssignmentType;
}

export function newAssignment(): Assignment {
  return { id: newId(), name: '', value: '', type: 'string' };
}

/** Reads an assignmentCollection value ({assignments: [...]}). */
export function readAssignments(value: JsonValue | undefined): Assignment[] {
  const stored = isObject(value) ? value.assignments : undefined;
  return Array.isArray(stored) ? stored.filter(isObject).map((a) => a as Assignment) : [];
}

/**
 * A right value typed into the panel: a number where the operator compares numbers (so strict
 * type validation accepts it), the text otherwise; expressions stay text.
 */
export function rightValueFromInput(input: string, operator: JsonObject): JsonValue {
  const numeric = operator.rightType === 'number' || (operator.type === 'number' && operator.rightType === undefined);
  if (!numeric || input.startsWith('=') || input.trim() === '') return input;
  const n = Number(input);
  return Number.isFinite(n) ? n : input;
}

/** A stored value as editable text: strings as they are, other values as JSON. */
export function valueText(value: JsonValue | undefined): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}
