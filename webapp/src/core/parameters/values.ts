import type { NodeProperty } from '@/core/workflow/nodeTypes';
import type { JsonValue } from '@/core/workflow/types';
import { clone } from './nodeParameters';
import { isExpression } from './visibility';

export interface NumberLimits {
  minValue?: number;
  maxValue?: number;
  numberPrecision?: number;
}

function finite(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** A property's number limits from its typeOptions (invalid entries ignored). */
export function numberLimits(property: NodeProperty): NumberLimits {
  const options = property.typeOptions ?? {};
  return { minValue: finite(options.minValue), maxValue: finite(options.maxValue), numberPrecision: finite(options.numberPrecision) };
}

/** A number kept within minValue and maxValue and rounded to numberPrecision decimals. */
export function clampNumber(value: number, limits: NumberLimits): number {
  let next = value;
  if (limits.minValue !== undefined) next = Math.max(limits.minValue, next);
  if (limits.maxValue !== undefined) next = Math.min(limits.maxValue, next);
  if (limits.numberPrecision !== undefined) {
    const factor = 10 ** Math.max(0, Math.floor(limits.numberPrecision));
    next = Math.round(next * factor) / factor;
  }
  return next;
}

/** The number typed text stands for, or undefined when it is none. */
export function parseNumber(text: string): number | undefined {
  const trimmed = text.trim().replace(',', '.');
  if (trimmed === '' || trimmed === '-' || trimmed === '.') return undefined;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : undefined;
}

/**
 * A fixed value as an expression (n8n's "add expression"): numbers and booleans are wrapped as
 * `={{5}}`, lists joined with commas, objects written as JSON inside `{{ }}`, text prefixed with `=`.
 */
export function toExpression(value: JsonValue | undefined, property: NodeProperty): string {
  if (isExpression(value)) return value;
  if (value === undefined || value === null) return '=';
  if (typeof value === 'number' || typeof value === 'boolean' || property.type === 'number' || property.type === 'boolean') return `={{${String(value)}}}`;
  if (Array.isArray(value)) return `=${value.map((item) => (typeof item === 'object' && item !== null ? JSON.stringify(item) : String(item))).join(',')}`;
  if (typeof value === 'object') return `={{${JSON.stringify(value)}}}`;
  return `=${value}`;
}

function optionValueSet(property: NodeProperty): JsonValue[] {
  return (property.options ?? []).map((option) => option.value).filter((value): value is JsonValue => value !== undefined);
}

/** A value converted to what the property's editor holds, or undefined when it cannot be. */
export function coerceValue(value: JsonValue | undefined, property: NodeProperty): JsonValue | undefined {
  if (value === undefined) return undefined;
  switch (property.type) {
    case 'number': {
      if (typeof value === 'number') return Number.isFinite(value) ? clampNumber(value, numberLimits(property)) : undefined;
      const parsed = typeof value === 'string' ? parseNumber(value) : undefined;
      return parsed === undefined ? undefined : clampNumber(parsed, numberLimits(property));
    }
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (value === 'true' || value === 'false') return value === 'true';
      return undefined;
    case 'multiOptions': {
      const allowed = optionValueSet(property);
      const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [value];
      return list.filter((item) => allowed.includes(item));
    }
    case 'options':
      return typeof value === 'object' && value !== null ? undefined : value;
    case 'json':
      return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
    default:
      if (typeof value === 'string') return value;
      if (value === null) return '';
      return typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
}

/** What evaluating the expression gave, when it was evaluated. */
export type EvaluatedExpression = { ok: true; value: JsonValue | undefined } | { ok: false };

const TEXT_TYPES = new Set(['string', 'json', 'color', 'dateTime', 'hidden']);

/**
 * The fixed value an expression turns into (n8n's "remove expression"). Text parameters keep the
 * text after the leading `=`. Other types take the evaluated value, else the text (or the literal
 * inside a lone `{{ }}`), converted to the parameter's type; what does not convert resets to the
 * default.
 */
export function fromExpression(expression: string, property: NodeProperty, evaluated?: EvaluatedExpression): JsonValue | undefined {
  const text = expression.replace(/^=/, '');
  if (TEXT_TYPES.has(property.type)) return text;
  if (evaluated?.ok) {
    const value = coerceValue(evaluated.value, property);
    if (value !== undefined) return value;
  }
  const literal = /^\{\{\s*([^{}]*?)\s*\}\}$/.exec(text)?.[1] ?? text;
  const value = coerceValue(literal, property);
  return value !== undefined ? value : clone(property.default);
}
