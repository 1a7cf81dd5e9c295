import type { JsonValue } from '@/core/workflow/types';

/** What evaluating an expression gave (POST /rest/expressions/evaluate): a value, or why there is none. */
export type EvaluationResult =
  | { ok: true; value: JsonValue | undefined }
  | { ok: false; kind: 'invalid' | 'notFound'; message: string };

/** How a result reads; the view turns the non-value kinds into n8n's bracketed texts. */
export type ResultText =
  | { kind: 'value'; text: string }
  | { kind: 'empty' }
  | { kind: 'notFound' }
  | { kind: 'invalid'; message: string };

/** A value as text: strings as they are, objects and arrays as JSON, null as `null`. */
export function valueToText(value: JsonValue | undefined): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  if (value === null || typeof value !== 'object') return String(value);
  return JSON.stringify(value);
}

/**
 * A parameter's resolved value as the parameter list shows it (n8n 0.186's parameter input): an
 * empty string or undefined reads `[empty]`, an error `[ERROR: message]`.
 */
export function inlineResultText(result: EvaluationResult): ResultText {
  if (!result.ok) return result.kind === 'notFound' ? { kind: 'empty' } : { kind: 'invalid', message: result.message };
  const text = valueToText(result.value);
  return text === '' ? { kind: 'empty' } : { kind: 'value', text };
}

/**
 * One `{{ }}` segment's value in the expression editor's result (n8n 0.186's expression input):
 * undefined reads `[not found]`, an error `[invalid (message)]`, null and empty strings nothing.
 */
export function segmentResultText(result: EvaluationResult): ResultText {
  if (!result.ok) return result.kind === 'notFound' ? { kind: 'notFound' } : { kind: 'invalid', message: result.message };
  return { kind: 'value', text: result.value === null ? '' : valueToText(result.value) };
}
