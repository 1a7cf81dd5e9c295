import { useMemo } from 'react';
import { useSettings } from '@/api/settings';
import { useTemplatesHealth, type TemplatesEndpoint } from '@/api/templates';

/**
 * The templates host of the settings, with the version n8n's client sends, and whether the host
 * answered its health check (undefined while unknown): a failed load with an unhealthy host is a
 * connection problem, not an empty result.
 */
export function useTemplatesEndpoint(): { endpoint: TemplatesEndpoint | null; healthy: boolean | undefined } {
  const { settings, isLoaded } = useSettings();
  const { enabled, host } = settings.templates;
  const healthy = useTemplatesHealth(isLoaded && enabled, host);
  const endpoint = useMemo(() => (isLoaded && enabled && host !== '' ? { host, version: settings.versionCli } : null), [isLoaded, enabled, host, settings.versionCli]);
  return { endpoint, healthy };
}
