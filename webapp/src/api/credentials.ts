import useSWR, { mutate } from 'swr';
import type { CredentialPayload, CredentialType, CredentialWithData } from '@/core/credentials';
import type { KnownCredential } from '@/core/parameters/credentials';
import type { JsonObject } from '@/core/workflow/types';
import { restApi } from './fetcher';

/** A stored credential as GET /rest/credentials lists it. */
export interface CredentialSummary extends KnownCredential {
  createdAt: string;
  updatedAt: string;
}

/** A credential type as GET /rest/credential-types lists it (n8n's ICredentialType, in part). */
export interface CredentialTypeSummary extends CredentialType {
  authenticate?: unknown;
  [key: string]: unknown;
}

const EMPTY: never[] = [];
const quiet = { revalidateOnFocus: false, shouldRetryOnError: false } as const;

function message(error: unknown): string | undefined {
  if (error === undefined || error === null) return undefined;
  return error instanceof Error ? error.message : String(error);
}

export const CREDENTIALS_KEY = '/credentials';

/** The user's credentials, without their data. */
export function listCredentials(): Promise<CredentialSummary[]> {
  return restApi.get<CredentialSummary[]>(CREDENTIALS_KEY);
}

/** The user's credentials (without data); empty with an error message when they cannot be loaded. */
export function useCredentials(): { credentials: CredentialSummary[]; isLoading: boolean; error?: string } {
  const { data, error, isLoading } = useSWR<CredentialSummary[]>(CREDENTIALS_KEY, listCredentials, quiet);
  return { credentials: Array.isArray(data) ? data : EMPTY, isLoading, error: message(error) };
}

/** All credential types; empty with an error message when they cannot be loaded. */
export function useCredentialTypes(): { types: CredentialTypeSummary[]; isLoading: boolean; error?: string } {
  const { data, error, isLoading } = useSWR<CredentialTypeSummary[]>('/credential-types', () => restApi.get<CredentialTypeSummary[]>('/credential-types'), {
    ...quiet,
    revalidateIfStale: false,
  });
  return { types: Array.isArray(data) ? data : EMPTY, isLoading, error: message(error) };
}

/** The known credentials for issue checks: undefined until they load or when they cannot be. */
export function useKnownCredentials(): readonly KnownCredential[] | undefined {
  const { credentials, isLoading, error } = useCredentials();
  return isLoading || error !== undefined ? undefined : credentials;
}

/** Refreshes every cached credentials list (after a create, update or delete). */
export function refreshCredentials(): Promise<unknown> {
  return mutate(CREDENTIALS_KEY);
}

/** A unique name for a new credential, built from `name` by the server (spec 002 §4). */
export async function newCredentialName(name: string): Promise<string> {
  const answer = await restApi.get<{ name: string }>('/credentials/new', { name });
  return answer.name;
}

/** One credential with its data; secrets come back as the redaction marker. */
export function getCredential(id: string): Promise<CredentialWithData> {
  return restApi.get<CredentialWithData>(`/credentials/${encodeURIComponent(id)}`, { includeData: true });
}

/** Creates a credential and refreshes the lists. */
export async function createCredential(payload: CredentialPayload): Promise<CredentialWithData> {
  const created = await restApi.request<CredentialWithData>('POST', '/credentials', { ...payload });
  await refreshCredentials();
  return created;
}

/** Updates a credential and refreshes the lists. */
export async function updateCredential(id: string, payload: CredentialPayload): Promise<CredentialWithData> {
  const updated = await restApi.request<CredentialWithData>('PATCH', `/credentials/${encodeURIComponent(id)}`, { ...payload });
  await refreshCredentials();
  return updated;
}

/** Deletes a credential and refreshes the lists. */
export async function deleteCredential(id: string): Promise<void> {
  await restApi.request<unknown>('DELETE', `/credentials/${encodeURIComponent(id)}`);
  await refreshCredentials();
}

/** What POST /credentials/test takes: the credential, and the node that tests it when the type has no test of its own. */
export interface CredentialTestRequest {
  credentials: { id?: string; name: string; type: string; data: JsonObject };
  nodeToTestWith?: string;
  testRequest?: { url: string; method: string };
}

/** The outcome of a connection test. */
export interface CredentialTestResult {
  status: 'OK' | 'Error';
  message: string;
}

/** Tests a credential against its service; a failed connection is a result, not an error. */
export function testCredential(body: CredentialTestRequest): Promise<CredentialTestResult> {
  return restApi.request<CredentialTestResult>('POST', '/credentials/test', { ...body });
}

/** The provider's authorization URL for a saved OAuth credential. */
export function oauthAuthorizationUrl(kind: 'oAuth1' | 'oAuth2', id: string): Promise<string> {
  return restApi.get<string>(kind === 'oAuth1' ? '/oauth1-credential/auth' : '/oauth2-credential/auth', { id });
}
