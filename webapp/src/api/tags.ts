import useSWR, { mutate } from 'swr';
import type { TagWithUsage } from '@/core/tags/tagsTable';
import { restApi } from './fetcher';
import { TAGS_KEY, WORKFLOWS_KEY } from './workflows';

/** The tags with how many workflows carry each (GET /tags?withUsageCount=true). */
export const TAGS_USAGE_KEY = '/tags?withUsageCount=true';

/** The tags manager's list, loaded when the manager opens and again after every change. */
export function useTagsWithUsage(enabled = true) {
  return useSWR<TagWithUsage[]>(enabled ? TAGS_USAGE_KEY : null, () => restApi.get<TagWithUsage[]>('/tags', { withUsageCount: true }), {
    revalidateOnFocus: false,
  });
}

/** Reloads every list that shows tags: the manager's, the tags input's and the workflows'. */
export async function refreshTagLists(): Promise<void> {
  await Promise.all([mutate(TAGS_USAGE_KEY), mutate(TAGS_KEY), mutate(WORKFLOWS_KEY)]);
}

export function renameTag(id: string, name: string): Promise<TagWithUsage> {
  return restApi.request<TagWithUsage>('PATCH', `/tags/${encodeURIComponent(id)}`, { name });
}

export function deleteTag(id: string): Promise<boolean> {
  return restApi.request<boolean>('DELETE', `/tags/${encodeURIComponent(id)}`);
}

export { createTag } from './workflows';
