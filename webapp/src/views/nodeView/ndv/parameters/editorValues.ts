import type { CredentialTypeSummary } from '@/api/credentials';
import type { NodeProperty } from '@/core/workflow/nodeTypes';
import type { JsonValue } from '@/core/workflow/types';

/** One choice of an options parameter, static or loaded from the server. */
export interface OptionChoice {
  name: string;
  value: JsonValue;
  description?: string;
}

/** The static options of a property as choices. */
export function staticChoices(property: NodeProperty): OptionChoice[] {
  return (property.options ?? [])
    .filter((option) => option.value !== undefined)
    .map((option) => ({ name: option.name, value: option.value as JsonValue, description: typeof option.description === 'string' ? option.description : undefined }));
}

/** A value as the text an input shows. */
export function textOf(value: JsonValue | undefined): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value, null, 2) : String(value);
}

const NO_EXPRESSION_TYPES = new Set(['collection', 'fixedCollection', 'notice', 'hidden', 'credentialsSelect', 'resourceMapper']);

/** Whether a property offers the Fixed/Expression switch. */
export function canBeExpression(property: NodeProperty): boolean {
  return property.noDataExpression !== true && !NO_EXPRESSION_TYPES.has(property.type);
}

/**
 * Whether a credential type passes a credentialsSelect filter: `extends:<type>` (it extends that
 * type), `has:<field>` (the field is set), or a plain type name.
 */
export function credentialTypeMatches(type: CredentialTypeSummary, filters: readonly string[]): boolean {
  if (filters.length === 0) return true;
  return filters.some((filter) => {
    if (filter.startsWith('extends:')) return type.extends?.includes(filter.slice('extends:'.length)) ?? false;
    if (filter.startsWith('has:')) {
      const field = type[filter.slice('has:'.length)];
      return field !== undefined && field !== null && field !== false;
    }
    return type.name === filter;
  });
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

/** A date as n8n's picker stores it: local ISO date and time without a zone, to the second. */
export function localIsoString(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** A copy of a list with the element at `from` moved to `to`. */
export function moved<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
}
