import { useCallback, useMemo } from 'react';
import useSWR, { unstable_serialize, useSWRConfig } from 'swr';
import { currentAppPaths } from '@/core/basePath';
import { NodeTypeIndex, type NodeTypeDescription } from '@/core/workflow/nodeTypes';
import { restApi } from './fetcher';

export const NODE_TYPES_KEY = '/node-types';

const requestNodeTypes = () => restApi.get<NodeTypeDescription[]>('/node-types');

/** Calls started before the editor asks (see preloadNodeTypes); each is used at most once. */
let earlyNodeTypes: Promise<NodeTypeDescription[] | null> | null = null;
const earlyDetails = new Map<string, Promise<NodeTypeDescription[] | null>>();

/** Starts loading the node types before the editor mounts; a failure is forgotten (the editor asks again). */
export function preloadNodeTypes(): void {
  earlyNodeTypes ??= requestNodeTypes().catch(() => null);
}

/** Starts loading the full descriptions of `typeKey` (see useNodeTypeDetails) before the editor asks. */
export function preloadNodeTypeDetails(typeKey: string): Promise<NodeTypeDescription[] | null> {
  if (typeKey === '') return Promise.resolve([]);
  let started = earlyDetails.get(typeKey);
  if (!started) {
    started = fetchNodeTypeDetails(typeKey).catch(() => null);
    earlyDetails.set(typeKey, started);
  }
  return started;
}

async function fetchNodeTypes(): Promise<NodeTypeDescription[]> {
  const started = earlyNodeTypes;
  earlyNodeTypes = null;
  return (started ? await started : null) ?? requestNodeTypes();
}

/** Every node type version (without properties), loaded once per page. */
export function useNodeTypes(): { types: NodeTypeDescription[]; index: NodeTypeIndex; isLoaded: boolean; error: unknown } {
  const { data, error } = useSWR<NodeTypeDescription[]>(NODE_TYPES_KEY, fetchNodeTypes, {
    revalidateOnFocus: false,
    revalidateIfStale: false,
    revalidateOnReconnect: false,
  });
  const index = useMemo(() => new NodeTypeIndex(data ?? []), [data]);
  return { types: data ?? [], index, isLoaded: data !== undefined, error };
}

/** The URL of a type's `file:` icon. */
export function nodeIconUrl(typeName: string): string {
  return `${currentAppPaths().restBase}/node-icon/${typeName}`;
}

/** The SWR key of the full descriptions of the types in `typeKey` (see useNodeTypeDetails). */
function detailsKey(typeKey: string): [string, string] {
  return ['node-type-details', typeKey];
}

function fetchNodeTypeDetails(typeKey: string): Promise<NodeTypeDescription[]> {
  return restApi.request<NodeTypeDescription[]>('POST', '/node-types', {
    nodeInfos: typeKey.split('\n').map((entry) => {
      const at = entry.lastIndexOf('@');
      return { name: entry.slice(0, at), version: Number(entry.slice(at + 1)) };
    }),
  });
}

/**
 * Full descriptions (with properties) of the node types a workflow uses, from POST /node-types;
 * null until they arrive. `typeKey` lists the types as `name@version`, sorted, so the call
 * repeats only when the set of types changes.
 */
export function useNodeTypeDetails(typeKey: string): NodeTypeIndex | null {
  const { data } = useSWR<NodeTypeDescription[]>(typeKey === '' ? null : detailsKey(typeKey), () => fetchNodeTypeDetails(typeKey), {
    revalidateOnFocus: false,
    revalidateIfStale: false,
    keepPreviousData: true,
  });
  return useMemo(() => (data ? new NodeTypeIndex(data) : null), [data]);
}

/**
 * Loads the full descriptions of `typeKey` into the cache useNodeTypeDetails reads, so an editor
 * opening a workflow has them on its first render; resolves to them, or to undefined when the
 * call fails (the hook then asks again).
 */
export function usePrefetchNodeTypeDetails(): (typeKey: string) => Promise<NodeTypeDescription[] | undefined> {
  const { cache, mutate } = useSWRConfig();
  return useCallback(
    (typeKey: string) => {
      if (typeKey === '') return Promise.resolve([]);
      const cached = cache.get(unstable_serialize(detailsKey(typeKey)))?.data as NodeTypeDescription[] | undefined;
      if (cached) return Promise.resolve(cached);
      const started = earlyDetails.get(typeKey);
      earlyDetails.delete(typeKey);
      const request = started ? started.then((found) => found ?? fetchNodeTypeDetails(typeKey)) : fetchNodeTypeDetails(typeKey);
      return mutate<NodeTypeDescription[]>(detailsKey(typeKey), request, { revalidate: false }).catch(() => undefined);
    },
    [cache, mutate],
  );
}
