import { CREDENTIAL_NAME_MAX_LENGTH, DEFAULT_CREDENTIAL_NAME, UNTITLED_CREDENTIAL_NAME, type CredentialType } from './types';

/** Types that always take the default generated name (spec 002 §4). */
const DEFAULT_NAMED_TYPES = new Set(['httpBasicAuth', 'oAuth2Api', 'httpDigestAuth', 'oAuth1Api']);

/** The app a type stands for: its display name without an 'API', 'OAuth1' or 'OAuth2' suffix (spec 002 §5). */
export function appName(displayName: string): string {
  return displayName.replace(/\s*(API|OAuth1|OAuth2)$/i, '').trim() || displayName;
}

/** The name a new credential of this type asks the server to make unique. */
export function suggestedName(type: CredentialType): string {
  if (DEFAULT_NAMED_TYPES.has(type.name)) return DEFAULT_CREDENTIAL_NAME;
  return `${appName(type.displayName)} account`;
}

/**
 * The name rule (spec 002 §5): at most 64 characters; an empty (or blank) name becomes
 * 'Untitled Credential' with a warning.
 */
export function normalizeName(input: string): { name: string; emptied: boolean } {
  const trimmed = input.trim();
  if (trimmed === '') return { name: UNTITLED_CREDENTIAL_NAME, emptied: true };
  return { name: trimmed.slice(0, CREDENTIAL_NAME_MAX_LENGTH), emptied: false };
}

/** A documentation link: used as is when it starts with http, otherwise under the documentation host (spec 002 §5). */
export function documentationLink(url: string | undefined): string | undefined {
  if (!url) return undefined;
  if (url.startsWith('http')) return url;
  return `https://docs.n8n.io/integrations/builtin/credentials/${url.replace(/^\/+/, '')}/`;
}
