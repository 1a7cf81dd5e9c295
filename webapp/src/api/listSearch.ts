import useSWR from 'swr';
import type { JsonObject, JsonValue, NodeCredential } from '@/core/workflow/types';
import { restApi } from './fetcher';

/** One entry of a resource locator list. */
export interface ListSearchEntry {
  name: string;
  value: JsonValue;
  url?: string;
}

/** What GET /rest/nodes-list-search answers. */
export interface ListSearchResult {
  results: ListSearchEntry[];
  paginationToken?: JsonValue;
}

export interface ListSearchRequest {
  nodeType: string;
  version: number;
  path: string;
  methodName: string;
  parameters: JsonObject;
  credentials?: Record<string, NodeCredential>;
  filter: string;
}

export interface ListSearchState {
  entries: ListSearchEntry[];
  isLoading: boolean;
  error?: string;
  reload: () => void;
}

/** The entries of a resource locator's list mode for a search text; null loads nothing. */
export function useListSearch(request: ListSearchRequest | null): ListSearchState {
  // The node's parameters are part of the key: a list may depend on them (the tables of the
  // schema picked above), and it only loads while open, when they do not change.
  const key = request
    ? ['nodes-list-search', request.nodeType, request.version, request.path, request.methodName, request.filter, JSON.stringify(request.credentials ?? {}), JSON.stringify(request.parameters)]
    : null;
  const { data, error, isValidating, mutate } = useSWR<ListSearchResult>(
    key,
    () =>
      request
        ? restApi.get<ListSearchResult>('/nodes-list-search', {
            nodeTypeAndVersion: { name: request.nodeType, version: request.version },
            path: request.path,
            methodName: request.methodName,
            currentNodeParameters: request.parameters,
            credentials: request.credentials,
            filter: request.filter,
          })
        : Promise.resolve({ results: [] }),
    { revalidateOnFocus: false, revalidateOnReconnect: false, shouldRetryOnError: false, keepPreviousData: true },
  );
  return {
    entries: Array.isArray(data?.results) ? data.results : [],
    isLoading: request !== null && isValidating,
    error: error === undefined ? undefined : error instanceof Error ? error.message : String(error),
    reload: () => void mutate(),
  };
}
