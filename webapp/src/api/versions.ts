import useSWR from 'swr';
import type { Settings } from '@/core/settings';
import { request } from './fetcher';

/** A release newer than the running one, as the version notification endpoint lists it. */
export interface Version {
  name: string;
  createdAt: string;
  description?: string;
  documentationUrl?: string;
  hasSecurityIssue?: boolean;
  hasSecurityFix?: boolean;
  hasBreakingChange?: boolean;
}

/**
 * Newer versions from the configured endpoint (GET <endpoint><current version>, with the
 * instance id in a header). Off unless version notifications are enabled; failures are swallowed
 * (spec 001 §7), leaving the list empty.
 */
export function useNewerVersions(settings: Settings): Version[] {
  const { enabled, endpoint } = settings.versionNotifications;
  const { data } = useSWR<Version[]>(
    enabled && endpoint !== '' ? ['versions', endpoint, settings.versionCli] : null,
    async () => {
      try {
        const body = await request({ baseUrl: endpoint, method: 'GET', endpoint: settings.versionCli, headers: { 'n8n-instance-id': settings.instanceId } });
        return Array.isArray(body) ? (body as Version[]) : [];
      } catch {
        return [];
      }
    },
    { revalidateOnFocus: false, shouldRetryOnError: false },
  );
  return data ?? [];
}
