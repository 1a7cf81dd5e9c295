import { useLayoutEffect, useRef } from 'react';
import useSWR from 'swr';
import type { JsonObject, JsonValue, NodeCredential } from '@/core/workflow/types';
import { restApi } from './fetcher';

/** One field GET /rest/get-mapping-fields answers (n8n's ResourceMapperField). */
export interface MappingField {
  id: string;
  displayName: string;
  required: boolean;
  defaultMatch: boolean;
  canBeUsedToMatch?: boolean;
  display: boolean;
  type?: string;
  options?: Array<{ name: string; value: JsonValue; description?: string }>;
}

/** What GET /rest/get-mapping-fields answers. */
export interface MappingFields {
  fields: MappingField[];
  emptyFieldsNotice?: string;
}

/** What GET /rest/get-mapping-fields needs for one resourceMapper parameter. */
export interface MappingFieldsRequest {
  nodeType: string;
  version: number;
  path: string;
  methodName: string;
  /** The node's current parameters, sent with every load. */
  parameters: JsonObject;
  credentials?: Record<string, NodeCredential>;
  /** Values of the parameters named in loadOptionsDependsOn, joined; a change reloads. */
  dependencies: string;
}

export interface MappingFieldsState {
  fields?: MappingField[];
  isLoading: boolean;
  error?: string;
  reload: () => void;
}

/**
 * The fields of a resourceMapper from its node's resourceMapperMethod. They load once, then
 * again when the node's credentials or the parameters the mapper depends on change, or on
 * `reload`; other edits do not reload, but the latest parameters go with each load.
 */
export function useMappingFields(request: MappingFieldsRequest | null): MappingFieldsState {
  const latest = useRef(request);
  useLayoutEffect(() => {
    latest.current = request;
  });
  const key = request ? ['get-mapping-fields', request.nodeType, request.version, request.path, request.methodName, JSON.stringify(request.credentials ?? {}), request.dependencies] : null;
  const { data, error, isValidating, mutate } = useSWR<MappingFields>(
    key,
    () => {
      const current = latest.current;
      if (!current) return Promise.resolve({ fields: [] });
      return restApi.get<MappingFields>('/get-mapping-fields', {
        nodeTypeAndVersion: { name: current.nodeType, version: current.version },
        path: current.path,
        methodName: current.methodName,
        currentNodeParameters: current.parameters,
        credentials: current.credentials,
      });
    },
    { revalidateOnFocus: false, revalidateIfStale: false, revalidateOnReconnect: false, shouldRetryOnError: false },
  );
  return {
    fields: Array.isArray(data?.fields) ? data.fields : undefined,
    isLoading: request !== null && isValidating,
    error: error === undefined ? undefined : error instanceof Error ? error.message : String(error),
    reload: () => void mutate(),
  };
}
