import { displayParameter, isExpression } from '@/core/parameters/visibility';
import type { JsonObject, JsonValue } from '@/core/workflow/types';
import { BLANK_SECRET, type CredentialProperty, type CredentialType } from './types';

const OAUTH1 = 'oAuth1Api';
const OAUTH2 = 'oAuth2Api';
/** OAuth2 grant types that send the user to the provider, so the credential needs connecting. */
const CONNECTED_GRANTS = new Set(['authorizationCode', 'pkce']);

function byName(types: readonly CredentialType[], name: string): CredentialType | undefined {
  return types.find((type) => type.name === name);
}

/**
 * All types `type` extends, nearest first, each once. A cycle in the descriptions is cut where it
 * closes rather than looping.
 */
export function parentTypes(type: CredentialType, types: readonly CredentialType[]): string[] {
  const seen = new Set<string>([type.name]);
  const result: string[] = [];
  const visit = (current: CredentialType) => {
    for (const parent of current.extends ?? []) {
      if (seen.has(parent)) continue;
      seen.add(parent);
      result.push(parent);
      const parentType = byName(types, parent);
      if (parentType) visit(parentType);
    }
  };
  visit(type);
  return result;
}

/**
 * A type's properties with its parents' first (n8n's getCredentialProperties): each parent's
 * resolved properties in `extends` order, then the type's own; a property the type redeclares
 * replaces the inherited one in place.
 */
export function resolveProperties(type: CredentialType, types: readonly CredentialType[], seen: ReadonlySet<string> = new Set()): CredentialProperty[] {
  const trail = new Set(seen).add(type.name);
  const combined: CredentialProperty[] = [];
  for (const parentName of type.extends ?? []) {
    const parent = byName(types, parentName);
    if (!parent || trail.has(parentName)) continue;
    for (const property of resolveProperties(parent, types, trail)) mergeProperty(combined, property);
  }
  for (const property of type.properties ?? []) mergeProperty(combined, property);
  return combined;
}

function mergeProperty(list: CredentialProperty[], property: CredentialProperty): void {
  const index = list.findIndex((existing) => existing.name === property.name);
  if (index === -1) list.push(property);
  else list[index] = property;
}

/** The data with every property's default filled in where the data has no value. */
export function withDefaults(properties: readonly CredentialProperty[], data: JsonObject): JsonObject {
  const result: JsonObject = { ...data };
  for (const property of properties) {
    if (result[property.name] === undefined && property.default !== undefined) result[property.name] = property.default;
  }
  return result;
}

/** Whether displayOptions show a property for the current data (defaults filled in). */
export function isPropertyShown(property: CredentialProperty, data: JsonObject): boolean {
  return displayParameter(property.displayOptions, data, 1);
}

/** The properties the Connection tab shows: not hidden, displayOptions matching the data. */
export function shownProperties(properties: readonly CredentialProperty[], data: JsonObject): CredentialProperty[] {
  const filled = withDefaults(properties, data);
  return properties.filter((property) => property.type !== 'hidden' && isPropertyShown(property, filled));
}

/**
 * Whether a required field's value counts as missing (spec 002 §5): a required string must be
 * non-empty and a required number must be a number. A kept secret (the redaction marker) is filled.
 */
export function isMissing(property: CredentialProperty, value: JsonValue | undefined): boolean {
  if (!property.required) return false;
  if (property.type === 'number') return typeof value !== 'number' && !isExpression(value);
  if (property.type === 'string' || property.type === 'options') return value === undefined || value === null || value === '';
  return false;
}

/** Names of the shown required fields that are missing. */
export function missingRequired(properties: readonly CredentialProperty[], data: JsonObject): string[] {
  const filled = withDefaults(properties, data);
  return shownProperties(properties, data)
    .filter((property) => isMissing(property, filled[property.name]))
    .map((property) => property.name);
}

/**
 * Whether the type connects an account through OAuth (spec 002 §4): OAuth1 types, and OAuth2 types
 * whose grant type sends the user to the provider (authorization code, PKCE).
 */
export function oauthKind(type: CredentialType, types: readonly CredentialType[], data: JsonObject): 'oAuth1' | 'oAuth2' | null {
  const lineage = [type.name, ...parentTypes(type, types)];
  if (lineage.includes(OAUTH1)) return 'oAuth1';
  if (!lineage.includes(OAUTH2)) return null;
  const grantType = withDefaults(resolveProperties(type, types), data).grantType;
  return typeof grantType === 'string' && CONNECTED_GRANTS.has(grantType) ? 'oAuth2' : null;
}

/**
 * Whether a saved credential is tested (spec 002 §4): not OAuth, required fields filled, no value
 * an expression, and the type has a test or a node in the workflow that can test it.
 */
export function isTestable(type: CredentialType, types: readonly CredentialType[], data: JsonObject, workflowNodeTypes: readonly string[]): boolean {
  if (oauthKind(type, types, data) !== null) return false;
  const properties = resolveProperties(type, types);
  if (missingRequired(properties, data).length > 0) return false;
  const shown = shownProperties(properties, data);
  if (shown.some((property) => isExpression(data[property.name]))) return false;
  const testers = (type.testedBy ?? []).filter((nodeType) => workflowNodeTypes.includes(nodeType));
  return Boolean(type.test) || testers.length > 0;
}

/**
 * The data sent on save: every property of the type with its value or default. OAuth token data
 * stays on the server (it keeps the stored token), and kept secrets go back as the redaction marker.
 */
export function dataToSave(properties: readonly CredentialProperty[], data: JsonObject): JsonObject {
  const result: JsonObject = {};
  for (const property of properties) {
    const value = data[property.name] ?? property.default;
    if (value !== undefined) result[property.name] = value;
  }
  return result;
}

/** Whether a value is a stored secret the server did not send. */
export function isKeptSecret(value: unknown): boolean {
  return value === BLANK_SECRET;
}
