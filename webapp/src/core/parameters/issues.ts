import type { NodeProperty } from '@/core/workflow/nodeTypes';
import type { JsonValue } from '@/core/workflow/types';
import { formatPath, type PathSegment } from './path';
import { CUSTOM_API_CALL_KEY, isExpression, isParameterShown, levelValues } from './visibility';

/** A problem with one parameter value; `path` is relative to the node's parameters. */
export type ParameterIssue =
  | { kind: 'required'; path: string; displayName: string }
  | { kind: 'optionNotSupported'; path: string; displayName: string; value: string }
  | { kind: 'credentialTypeNotSelected'; path: string; displayName: string };

type Values = Readonly<Record<string, JsonValue | undefined>>;

/** Types that are never empty in a way that matters (n8n checks text, options and dates). */
const NEVER_REQUIRED = new Set(['notice', 'hidden', 'collection', 'fixedCollection', 'boolean', 'credentialsSelect']);

export function isEmptyValue(value: JsonValue | undefined): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

/** Whether a property's options come from the server (they cannot be checked offline). */
export function hasRemoteOptions(property: NodeProperty): boolean {
  return property.typeOptions?.loadOptionsMethod !== undefined || property.typeOptions?.loadOptions !== undefined;
}

/**
 * The values of an options or multiOptions parameter that are not among its options, as text. An
 * expression, an empty value and a custom API call value are never reported.
 */
export function unsupportedOptionValues(property: NodeProperty, value: JsonValue | undefined, options: ReadonlyArray<{ value?: unknown }> | undefined = property.options): string[] {
  if (!options || options.length === 0 || isExpression(value)) return [];
  const allowed = options.map((option) => option.value);
  const values = property.type === 'multiOptions' && Array.isArray(value) ? value : [value];
  const skipped = (item: JsonValue | undefined) => item === undefined || item === '' || (typeof item === 'string' && item.includes(CUSTOM_API_CALL_KEY));
  return values.filter((item) => !skipped(item) && !allowed.some((candidate) => candidate === item)).map((item) => (typeof item === 'string' ? item : JSON.stringify(item)));
}

/** The issues a single shown value has on its own (not counting nested levels). */
export function valueIssues(property: NodeProperty, value: JsonValue | undefined, path: string): ParameterIssue[] {
  const { displayName } = property;
  if (property.type === 'credentialsSelect') return isEmptyValue(value) ? [{ kind: 'credentialTypeNotSelected', path, displayName }] : [];
  const issues: ParameterIssue[] = [];
  if (property.required === true && !NEVER_REQUIRED.has(property.type)) {
    const multiple = property.typeOptions?.multipleValues === true && Array.isArray(value);
    // A resource locator is empty when its {__rl, mode, value} holds no value.
    const checked = property.type === 'resourceLocator' && typeof value === 'object' && value !== null && !Array.isArray(value) ? value.value : value;
    const empty = multiple ? (value as JsonValue[]).some(isEmptyValue) : isEmptyValue(checked);
    if (empty) issues.push({ kind: 'required', path, displayName });
  }
  if ((property.type === 'options' || property.type === 'multiOptions') && !hasRemoteOptions(property)) {
    for (const unsupported of unsupportedOptionValues(property, value)) issues.push({ kind: 'optionNotSupported', path, displayName, value: unsupported });
  }
  return issues;
}

function levelIssues(properties: readonly NodeProperty[], values: Values, root: Values, version: number, base: PathSegment[]): ParameterIssue[] {
  const issues: ParameterIssue[] = [];
  for (const property of properties) {
    if (!isParameterShown(property, { values, root, version })) continue;
    const value = values[property.name];
    const path = [...base, property.name];
    issues.push(...valueIssues(property, value, formatPath(path)));
    if (property.type === 'collection' && property.typeOptions?.multipleValues !== true && value !== undefined) {
      const children = ((property.options ?? []) as NodeProperty[]).filter((child) => levelValues(value)[child.name] !== undefined);
      issues.push(...levelIssues(children, levelValues(value), root, version, path));
    }
    if (property.type === 'fixedCollection') {
      for (const [group, groupValue] of Object.entries(levelValues(value))) {
        const children = property.options?.find((option) => option.name === group)?.values;
        if (!Array.isArray(children)) continue;
        if (property.typeOptions?.multipleValues === true) {
          if (!Array.isArray(groupValue)) continue;
          groupValue.forEach((item, index) => issues.push(...levelIssues(children as NodeProperty[], levelValues(item), root, version, [...path, group, index])));
        } else {
          issues.push(...levelIssues(children as NodeProperty[], levelValues(groupValue), root, version, [...path, group]));
        }
      }
    }
  }
  return issues;
}

/**
 * The issues of a node's parameters on every nesting level: shown required parameters that are
 * empty, option values not in the list, and credential-type selects left empty. `parameters` are
 * the values with defaults (nodeParametersWithDefaults).
 */
export function parameterIssues(properties: readonly NodeProperty[], parameters: Values, version: number): ParameterIssue[] {
  return levelIssues(properties, parameters, parameters, version, []);
}
