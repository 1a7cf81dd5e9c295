import { useLayoutEffect, useRef } from 'react';
import useSWR from 'swr';
import type { JsonObject, JsonValue, NodeCredential } from '@/core/workflow/types';
import { restApi } from './fetcher';

/** One option a load-options method returned. */
export interface ParameterOption {
  name: string;
  value: JsonValue;
  description?: string;
}

/** What GET /rest/node-parameter-options needs for one parameter. */
export interface ParameterOptionsRequest {
  nodeType: string;
  version: number;
  /** Full path of the parameter on the node, e.g. `parameters.zone`. */
  path: string;
  methodName?: string;
  loadOptions?: JsonValue;
  /** The node's current parameters, sent with every load. */
  parameters: JsonObject;
  credentials?: Record<string, NodeCredential>;
  /** Values of the parameters named in loadOptionsDependsOn, joined; a change reloads. */
  dependencies: string;
}

export interface ParameterOptionsState {
  options?: ParameterOption[];
  isLoading: boolean;
  /** The server's message when loading failed. */
  error?: string;
  reload: () => void;
}

function load(request: ParameterOptionsRequest): Promise<ParameterOption[]> {
  return restApi.get<ParameterOption[]>('/node-parameter-options', {
    nodeTypeAndVersion: { name: request.nodeType, version: request.version },
    path: request.path,
    methodName: request.methodName,
    loadOptions: request.loadOptions,
    currentNodeParameters: request.parameters,
    credentials: request.credentials,
  });
}

/**
 * The remote options of a parameter (typeOptions loadOptionsMethod or loadOptions). They load
 * once, then again when the node's credentials or the parameters it depends on change, or on
 * `reload`. Other parameter edits do not reload, but the latest parameters go with each load.
 */
export function useParameterOptions(request: ParameterOptionsRequest | null): ParameterOptionsState {
  const latest = useRef(request);
  // Declared before useSWR so loads it starts in its own layout effect see this render's request.
  useLayoutEffect(() => {
    latest.current = request;
  });
  const key = request
    ? ['node-parameter-options', request.nodeType, request.version, request.path, request.methodName ?? '', JSON.stringify(request.loadOptions ?? null), JSON.stringify(request.credentials ?? {}), request.dependencies]
    : null;
  const { data, error, isValidating, mutate } = useSWR<ParameterOption[]>(key, () => (latest.current ? load(latest.current) : Promise.resolve([])), {
    revalidateOnFocus: false,
    revalidateIfStale: false,
    revalidateOnReconnect: false,
    shouldRetryOnError: false,
  });
  return {
    options: Array.isArray(data) ? data : undefined,
    isLoading: request !== null && isValidating,
    error: error === undefined ? undefined : error instanceof Error ? error.message : String(error),
    reload: () => void mutate(),
  };
}
