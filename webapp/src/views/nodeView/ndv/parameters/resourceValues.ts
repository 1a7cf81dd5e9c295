import type { MappingField } from '@/api/mappingFields';
import { isExpression } from '@/core/parameters';
import type { NodeProperty } from '@/core/workflow/nodeTypes';
import type { JsonObject, JsonValue } from '@/core/workflow/types';

/** A resourceLocator value as n8n 1.x stores it. */
export type LocatorValue = JsonObject & {
  __rl: true;
  mode: string;
  value: JsonValue;
  cachedResultName?: string;
  cachedResultUrl?: string;
};

/** One mode of a resourceLocator property (n8n's INodePropertyMode). */
export interface LocatorMode {
  name: string;
  displayName: string;
  type: string;
  placeholder?: string;
  hint?: string;
  searchListMethod?: string;
  searchable: boolean;
  /** Regex checks of the typed value, with the message shown when one fails. */
  validation: Array<{ regex: string; errorMessage: string }>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The modes a property offers, in its order. */
export function locatorModes(property: NodeProperty): LocatorMode[] {
  const modes = Array.isArray(property.modes) ? (property.modes as unknown[]) : [];
  return modes.filter(isRecord).map((mode) => {
    const typeOptions = isRecord(mode.typeOptions) ? mode.typeOptions : {};
    const validation = (Array.isArray(mode.validation) ? mode.validation : []).filter(isRecord).flatMap((rule) => {
      const props = isRecord(rule.properties) ? rule.properties : {};
      return rule.type === 'regex' && typeof props.regex === 'string' ? [{ regex: props.regex, errorMessage: typeof props.errorMessage === 'string' ? props.errorMessage : '' }] : [];
    });
    return {
      name: String(mode.name),
      displayName: typeof mode.displayName === 'string' ? mode.displayName : String(mode.name),
      type: typeof mode.type === 'string' ? mode.type : 'string',
      placeholder: typeof mode.placeholder === 'string' ? mode.placeholder : undefined,
      hint: typeof mode.hint === 'string' ? mode.hint : undefined,
      searchListMethod: typeof typeOptions.searchListMethod === 'string' ? typeOptions.searchListMethod : undefined,
      searchable: typeOptions.searchable === true,
      validation,
    };
  });
}

/**
 * A stored value as a locator value: a plain value (a node from before the parameter became a
 * resource locator) keeps its value in the first mode that is not a list, as n8n reads it.
 */
export function toLocator(value: JsonValue | undefined, modes: readonly LocatorMode[]): LocatorValue {
  if (isRecord(value) && typeof value.mode === 'string') {
    const out: LocatorValue = { __rl: true, mode: value.mode, value: (value.value as JsonValue | undefined) ?? '' };
    if (typeof value.cachedResultName === 'string') out.cachedResultName = value.cachedResultName;
    if (typeof value.cachedResultUrl === 'string') out.cachedResultUrl = value.cachedResultUrl;
    return out;
  }
  const fallback = modes.find((mode) => mode.type !== 'list') ?? modes[0];
  return { __rl: true, mode: fallback?.name ?? 'id', value: value === undefined || value === null ? '' : (value as JsonValue) };
}

/**
 * The value after the mode select changed (n8n's onModeSelected): the URL of the picked entry
 * goes to url mode, a picked entry's id to id mode; otherwise the value starts empty.
 */
export function switchLocatorMode(current: LocatorValue, mode: string): LocatorValue {
  if (current.mode === mode) return current;
  if (mode === 'url' && current.cachedResultUrl) return { __rl: true, mode, value: current.cachedResultUrl };
  if (mode === 'id' && current.mode === 'list' && current.value !== '' && current.value !== null) return { __rl: true, mode, value: current.value };
  return { __rl: true, mode, value: '' };
}

/** The value after picking a list entry: its value, name and link are kept. */
export function pickListEntry(entry: { name: string; value: JsonValue; url?: string }): LocatorValue {
  const out: LocatorValue = { __rl: true, mode: 'list', value: entry.value, cachedResultName: entry.name };
  if (entry.url) out.cachedResultUrl = entry.url;
  return out;
}

/** The value after typing into an id, url or custom mode. */
export function typedLocator(mode: string, value: string): LocatorValue {
  return { __rl: true, mode, value };
}

/** The messages of the mode's validation rules the value fails (none for an empty value or an expression). */
export function locatorErrors(locator: LocatorValue, modes: readonly LocatorMode[]): string[] {
  const mode = modes.find((entry) => entry.name === locator.mode);
  if (!mode || mode.type === 'list') return [];
  const text = typeof locator.value === 'string' ? locator.value : String(locator.value ?? '');
  if (text === '' || isExpression(text)) return [];
  const errors: string[] = [];
  for (const rule of mode.validation) {
    let regex: RegExp;
    try {
      regex = new RegExp(`^${rule.regex}$`);
    } catch {
      continue;
    }
    if (!regex.test(text)) errors.push(rule.errorMessage);
  }
  return errors;
}

/** Whether a resourceLocator value holds an expression. */
export function isLocatorExpression(value: JsonValue | undefined): boolean {
  return isRecord(value) && isExpression(value.value);
}

/** A resourceMapper value (n8n's ResourceMapperValue); unknown keys are kept by the editor. */
export interface MapperValue extends JsonObject {
  mappingMode: string;
  value: JsonObject | null;
}

/** One field of a resourceMapper schema (n8n's ResourceMapperField). */
export interface MapperField {
  id: string;
  displayName: string;
  required: boolean;
  type?: string;
  removed: boolean;
  /** Whether the field may identify rows (update, upsert); true unless the schema says no. */
  canBeUsedToMatch: boolean;
  /** The choices of an options field. */
  options?: Array<{ name: string; value: JsonValue }>;
}

/** A stored value as a resourceMapper value; anything else starts as the default. */
export function toMapper(value: JsonValue | undefined, property: NodeProperty): MapperValue {
  const source = isRecord(value) ? value : isRecord(property.default) ? property.default : {};
  const values = isRecord(source.value) ? (source.value as JsonObject) : null;
  return { ...(source as JsonObject), mappingMode: typeof source.mappingMode === 'string' ? source.mappingMode : 'defineBelow', value: values };
}

/** The fields of a mapper value's schema. */
export function mapperSchema(mapper: MapperValue): MapperField[] {
  const schema: unknown[] = Array.isArray(mapper.schema) ? mapper.schema : [];
  return schema.filter(isRecord).map((field) => ({
    id: String(field.id),
    displayName: typeof field.displayName === 'string' ? field.displayName : String(field.id),
    required: field.required === true,
    type: typeof field.type === 'string' ? field.type : undefined,
    removed: field.removed === true,
    canBeUsedToMatch: field.canBeUsedToMatch !== false,
    options: Array.isArray(field.options)
      ? field.options.filter(isRecord).map((option) => ({ name: String(option.name), value: (option.value as JsonValue | undefined) ?? null }))
      : undefined,
  }));
}

/**
 * The mapper value once its node answered the fields, as n8n stores it: the fields become the
 * schema. Fields of the same set keep their removed marks; when the set changed (another table),
 * values of fields that are gone are dropped. Matching columns keep those that may still match,
 * else start as the fields matched on by default. The same object comes back when nothing changed.
 */
export function applyFetchedFields(mapper: MapperValue, fields: readonly MappingField[]): MapperValue {
  const old = new Map(mapperSchema(mapper).map((field) => [field.id, field]));
  const ids = new Set(fields.map((field) => field.id));
  const sameFields = old.size === ids.size && fields.every((field) => old.has(field.id));
  const schema: JsonObject[] = fields.map((field) => {
    const entry: JsonObject = {
      id: field.id,
      displayName: field.displayName,
      required: field.required,
      defaultMatch: field.defaultMatch,
      display: field.display,
      canBeUsedToMatch: field.canBeUsedToMatch !== false,
    };
    if (field.type !== undefined) entry.type = field.type;
    if (field.options !== undefined) entry.options = field.options.map((option) => ({ name: option.name, value: option.value }));
    entry.removed = sameFields ? (old.get(field.id)?.removed ?? false) : false;
    return entry;
  });
  let value = mapper.value;
  if (!sameFields && old.size > 0 && value) value = Object.fromEntries(Object.entries(value).filter(([key]) => ids.has(key)));
  const matchable = new Set(fields.filter((field) => field.canBeUsedToMatch !== false).map((field) => field.id));
  let matching = (Array.isArray(mapper.matchingColumns) ? mapper.matchingColumns : []).filter((id): id is string => typeof id === 'string' && matchable.has(id));
  if (matching.length === 0) matching = fields.filter((field) => field.defaultMatch && matchable.has(field.id)).map((field) => field.id);
  const next: MapperValue = { ...mapper, value, matchingColumns: matching, schema };
  return JSON.stringify(next) === JSON.stringify(mapper) ? mapper : next;
}

/** The mapper value with other columns to match on. */
export function setMatchingColumns(mapper: MapperValue, ids: readonly string[]): MapperValue {
  return { ...mapper, matchingColumns: [...ids] };
}

/** The rows defineBelow shows: schema fields not removed, then values of fields the schema lacks. */
export function mapperRows(mapper: MapperValue): MapperField[] {
  const schema = mapperSchema(mapper);
  const values = mapper.value ?? {};
  const rows = schema.filter((field) => !field.removed || field.id in values);
  for (const key of Object.keys(values)) {
    if (!rows.some((field) => field.id === key)) rows.push({ id: key, displayName: key, required: false, removed: false, canBeUsedToMatch: true });
  }
  return rows;
}

/**
 * A typed field value as the schema type wants it: numbers and booleans as such when the text
 * is one; expressions and everything else as text.
 */
export function fieldValue(text: string, type: string | undefined): JsonValue {
  if (isExpression(text) || text === '') return text;
  if (type === 'number') {
    const number = Number(text);
    return Number.isFinite(number) ? number : text;
  }
  if (type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

/** The mapper value with one field set (undefined removes it, marking a schema field removed). */
export function setMapperField(mapper: MapperValue, id: string, value: JsonValue | undefined): MapperValue {
  const values: JsonObject = Object.fromEntries(Object.entries(mapper.value ?? {}).filter(([key]) => key !== id));
  if (value !== undefined) values[id] = value;
  const next: MapperValue = { ...mapper, value: values };
  if (Array.isArray(mapper.schema)) {
    next.schema = mapper.schema.map((field) => (isRecord(field) && field.id === id ? { ...(field as JsonObject), removed: value === undefined } : field));
  }
  return next;
}
