import { useMemo } from 'react';
import useSWR from 'swr';
import { currentAppPaths } from '../core/basePath';
import { NodeTypeIndex, type NodeTypeDescription } from '../core/workflow/nodeTypes';
import { restApi } from './fetcher';

export const NODE_TYPES_KEY = '/node-types';

/** Every node type version (without properties), loaded once per page. */
export function useNodeTypes(): { types: NodeTypeDescription[]; index: NodeTypeIndex; isLoaded: boolean; error: unknown } {
  const { data, error } = useSWR<NodeTypeDescription[]>(NODE_TYPES_KEY, () => restApi.get<NodeTypeDescription[]>('/node-types'), {
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
