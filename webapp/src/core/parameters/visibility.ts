import type { DisplayOptions, NodeProperty } from '@/core/workflow/nodeTypes';
import type { JsonValue } from '@/core/workflow/types';
import { getAt, isJsonObject, parsePath } from './path';

/** Marks a resource or operation value that stands for a custom API call (n8n's CUSTOM_API_CALL_KEY). */
export const CUSTOM_API_CALL_KEY = '__CUSTOM_API_CALL__';

/** Parameters that stay visible while a custom API call is selected (spec 001 §5). */
const CUSTOM_API_CALL_VISIBLE = new Set(['authentication', 'resource', 'operation']);

type Values = Readonly<Record<string, JsonValue | undefined>>;

export function isExpression(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith('=');
}

function sameValue(a: JsonValue | undefined, b: JsonValue): boolean {
  return a === b || (typeof a === 'object' && a !== null && JSON.stringify(a) === JSON.stringify(b));
}

function valuesOf(key: string, values: Values, root: Values, version: number): Array<JsonValue | undefined> {
  let value: JsonValue | undefined;
  if (key === '@version') value = version;
  else if (key.startsWith('/')) value = getAt(root as JsonValue, parsePath(key.slice(1)));
  else value = getAt(values as JsonValue, parsePath(key));
  return Array.isArray(value) ? value : [value];
}

/**
 * Whether displayOptions show a parameter (n8n's displayParameter): every `show` key must hold one
 * of its values and no `hide` key may. Keys name parameters on the same level as the parameter;
 * a leading `/` names a top-level parameter and `@version` the node's type version. A list value
 * matches when any element does; an empty list matches no `show` rule. An expression in a `show`
 * key cannot be judged before it runs, so it shows the parameter.
 */
export function displayParameter(options: DisplayOptions | undefined, values: Values, version: number, root: Values = values): boolean {
  if (!options) return true;
  for (const [key, allowed] of Object.entries(options.show ?? {})) {
    const actual = valuesOf(key, values, root, version);
    if (actual.some(isExpression)) return true;
    if (actual.length === 0 || !allowed.some((candidate) => actual.some((value) => sameValue(value, candidate)))) return false;
  }
  for (const [key, hidden] of Object.entries(options.hide ?? {})) {
    const actual = valuesOf(key, values, root, version);
    if (actual.length > 0 && hidden.some((candidate) => actual.some((value) => sameValue(value, candidate)))) return false;
  }
  return true;
}

/** Whether the node's resource or operation is a custom API call. */
export function isCustomApiCall(parameters: Values): boolean {
  return ['resource', 'operation'].some((name) => {
    const value = parameters[name];
    return typeof value === 'string' && value.includes(CUSTOM_API_CALL_KEY);
  });
}

/** The context a parameter list level is shown in. */
export interface DisplayContext {
  /** Values of the level the parameter sits on, with defaults. */
  values: Values;
  /** Top-level parameter values, with defaults. */
  root: Values;
  version: number;
}

/**
 * Whether the parameter list shows a property: never `hidden` ones; during a custom API call only
 * authentication, resource, operation and parameters without hide rules; otherwise as its
 * displayOptions say.
 */
export function isParameterShown(property: NodeProperty, context: DisplayContext): boolean {
  if (property.type === 'hidden') return false;
  if (isCustomApiCall(context.root) && !CUSTOM_API_CALL_VISIBLE.has(property.name) && property.displayOptions?.hide !== undefined) return false;
  return displayParameter(property.displayOptions, context.values, context.version, context.root);
}

/** The values of a nested level as an object (an absent or malformed level is empty). */
export function levelValues(value: JsonValue | undefined): Values {
  return isJsonObject(value) ? value : {};
}
