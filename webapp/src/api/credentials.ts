import useSWR from 'swr';
import type { KnownCredential } from '@/core/parameters/credentials';
import { restApi } from './fetcher';

/** A stored credential as GET /rest/credentials lists it. */
export interface CredentialSummary extends KnownCredential {
  createdAt: string;
  updatedAt: string;
}

/** A credential type as GET /rest/credential-types lists it (n8n's ICredentialType, in part). */
export interface CredentialTypeSummary {
  name: string;
  displayName: string;
  extends?: string[];
  genericAuth?: boolean;
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
