import useSWR from 'swr';
import type { Settings } from '@/core/settings';
import { readVersions, type VersionInfo } from '@/core/versions/versions';
import { request } from './fetcher';

export type { Version, VersionInfo } from '@/core/versions/versions';

const NO_VERSIONS: VersionInfo = { current: null, next: [] };

/**
 * The versions the configured endpoint lists (GET <endpoint><current version>, with the instance
 * id in a header), split into the running one and the newer ones. Off unless version
 * notifications are enabled; fetched once per page, failures swallowed (spec 002 §8), leaving no
 * versions.
 */
export function useVersionInfo(settings: Settings): VersionInfo {
  const { enabled, endpoint } = settings.versionNotifications;
  const { data } = useSWR<VersionInfo>(
    enabled && endpoint !== '' ? ['versions', endpoint, settings.versionCli] : null,
    async () => {
      try {
        const body = await request({ baseUrl: endpoint, method: 'GET', endpoint: settings.versionCli, headers: { 'n8n-instance-id': settings.instanceId } });
        return readVersions(body, settings.versionCli);
      } catch {
        return NO_VERSIONS;
      }
    },
    { revalidateOnFocus: false, revalidateOnReconnect: false, revalidateIfStale: false, shouldRetryOnError: false },
  );
  return data ?? NO_VERSIONS;
}

/** The releases newer than the running one. */
export function useNewerVersions(settings: Settings) {
  return useVersionInfo(settings).next;
}
