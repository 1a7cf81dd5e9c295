import type { NodeProperty, NodeTypeDescription } from '@/core/workflow/nodeTypes';
import type { JsonObject, JsonValue } from '@/core/workflow/types';
import { isJsonObject } from './path';
import { displayParameter } from './visibility';

/** How getNodeParameters builds the values of one level. */
export interface NodeParametersOptions {
  /** Fill in defaults for parameters without a value. */
  returnDefaults: boolean;
  /** Keep values of parameters their displayOptions hide. */
  returnNoneDisplayed: boolean;
  /** The node's type version, for `@version` rules. */
  version: number;
}

interface LevelOptions extends NodeParametersOptions {
  root?: JsonObject;
  parentType?: string;
  onlySimpleTypes?: boolean;
  dataIsResolved?: boolean;
}

const COMPLEX_TYPES = new Set(['collection', 'fixedCollection']);

/** A deep copy of a JSON value; primitives are returned as they are (copying them is a costly native call). */
export function clone<T extends JsonValue | undefined>(value: T): T {
  return typeof value !== 'object' || value === null ? value : (structuredClone(value) as T);
}

export function sameJson(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

/** What a level's property list needs on every pass, worked out once per list (descriptions do not change). */
interface LevelShape {
  order: NodeProperty[];
  duplicates: Set<string>;
}

const shapes = new WeakMap<readonly NodeProperty[], LevelShape>();

function shapeOf(properties: readonly NodeProperty[]): LevelShape {
  let shape = shapes.get(properties);
  if (!shape) {
    shape = { order: resolveOrder(properties), duplicates: duplicateNames(properties) };
    shapes.set(properties, shape);
  }
  return shape;
}

/** The properties whose displayOptions depend on other properties of the level come after those. */
function resolveOrder(properties: readonly NodeProperty[]): NodeProperty[] {
  const names = new Set(properties.map((property) => property.name));
  const done = new Set<string>();
  const ordered: NodeProperty[] = [];
  let pending = [...properties];
  while (pending.length > 0) {
    const ready = pending.filter((property) => {
      const rules = { ...property.displayOptions?.show, ...property.displayOptions?.hide };
      return Object.keys(rules).every((key) => key.startsWith('@') || key.startsWith('/') || key === property.name || !names.has(key) || done.has(key));
    });
    // A dependency cycle keeps the declared order for the rest.
    const next = ready.length > 0 ? ready : pending;
    for (const property of next) {
      ordered.push(property);
      done.add(property.name);
    }
    pending = pending.filter((property) => !next.includes(property));
  }
  return ordered;
}

function duplicateNames(properties: readonly NodeProperty[]): Set<string> {
  const seen = new Set<string>();
  const duplicates = new Set<string>();
  for (const property of properties) {
    if (seen.has(property.name)) duplicates.add(property.name);
    seen.add(property.name);
  }
  return duplicates;
}

function optionValues(property: NodeProperty, name: string): NodeProperty[] | undefined {
  const option = property.options?.find((candidate) => candidate.name === name);
  const values = option?.values;
  return Array.isArray(values) ? (values as NodeProperty[]) : undefined;
}

/**
 * The parameter values of one level (n8n's NodeHelpers.getNodeParameters): with
 * `returnDefaults` every parameter gets its default when unset, otherwise only values that differ
 * from their defaults are kept; without `returnNoneDisplayed` values of hidden parameters are
 * dropped. Collections keep only the options that are set; fixed collections are built group by
 * group, item by item.
 */
export function getNodeParameters(properties: readonly NodeProperty[], values: JsonObject | undefined, options: NodeParametersOptions): JsonObject {
  return level(properties, values, options);
}

function level(properties: readonly NodeProperty[], values: JsonObject | undefined, options: LevelOptions): JsonObject {
  const { returnDefaults, returnNoneDisplayed, version, parentType } = options;
  const { order, duplicates } = shapeOf(properties);
  const out: JsonObject = {};
  const full: JsonObject = {};
  const displayCheck =
    !options.dataIsResolved && !returnNoneDisplayed
      ? level(properties, values, { returnDefaults: true, returnNoneDisplayed: true, version, root: options.root, parentType, onlySimpleTypes: true, dataIsResolved: true })
      : full;
  const root = options.root ?? displayCheck;
  const shown = (property: NodeProperty) => displayParameter(property.displayOptions, displayCheck, version, root);

  for (const property of order) {
    const name = property.name;
    const value = values?.[name];
    if (!values || (value === undefined && (!returnDefaults || parentType === 'collection'))) continue;
    if (!returnNoneDisplayed && !shown(property)) continue;

    if (!COMPLEX_TYPES.has(property.type)) {
      if (duplicates.has(name) && !shown(property)) continue;
      if (returnDefaults) {
        out[name] = value !== undefined ? value : (clone(property.default) ?? null);
        full[name] = out[name];
      } else if (!sameJson(value, property.default) || (value !== undefined && parentType === 'collection')) {
        out[name] = value as JsonValue;
        full[name] = value as JsonValue;
      }
      continue;
    }
    if (options.onlySimpleTypes) continue;

    const child = { returnDefaults, returnNoneDisplayed, version, root, parentType: property.type };
    if (property.type === 'collection') {
      if (property.typeOptions?.multipleValues === true) {
        if (value !== undefined) out[name] = value;
        else if (returnDefaults) out[name] = Array.isArray(property.default) ? clone(property.default) : [];
      } else if (value !== undefined) {
        const nested = level((property.options ?? []) as NodeProperty[], isJsonObject(value) ? value : {}, child);
        if (returnDefaults || Object.keys(nested).length > 0 || !sameJson(nested, property.default ?? {})) out[name] = nested;
      } else if (returnDefaults) {
        out[name] = clone(property.default) ?? {};
      }
      if (out[name] !== undefined) full[name] = out[name];
      continue;
    }

    const groups = value === undefined && returnDefaults ? clone(property.default) : value;
    const collected: JsonObject = {};
    const multiple = property.typeOptions?.multipleValues === true;
    for (const [groupName, groupValue] of Object.entries(isJsonObject(groups) ? groups : {})) {
      const groupProperties = optionValues(property, groupName);
      if (!groupProperties) continue;
      if (multiple) {
        if (!Array.isArray(groupValue)) continue;
        const items = groupValue.map((item) => level(groupProperties, isJsonObject(item) ? item : {}, child));
        if (items.length > 0 || returnDefaults) collected[groupName] = items;
      } else {
        collected[groupName] = level(groupProperties, isJsonObject(groupValue) ? groupValue : {}, child);
      }
    }
    if (returnDefaults || (Object.keys(collected).length > 0 && !sameJson(collected, property.default))) {
      out[name] = collected;
      full[name] = collected;
    }
  }
  return out;
}

/** A node's parameters as the list shows them: defaults filled in, hidden parameters left out. */
export function nodeParametersWithDefaults(type: NodeTypeDescription | undefined, parameters: JsonObject, version: number): JsonObject {
  if (!type?.properties) return parameters;
  return getNodeParameters(type.properties, parameters, { returnDefaults: true, returnNoneDisplayed: false, version });
}

/** A node's parameters as they are stored: only shown values that differ from their defaults. */
export function nodeParametersToStore(type: NodeTypeDescription | undefined, parameters: JsonObject, version: number): JsonObject {
  if (!type?.properties) return parameters;
  return getNodeParameters(type.properties, parameters, { returnDefaults: false, returnNoneDisplayed: false, version });
}
