import useSWR from 'swr';
import { request } from './fetcher';

/** Spec 000 §9: the templates health check gives up after 2 s. */
export const TEMPLATES_HEALTH_TIMEOUT_MS = 2000;

/**
 * GET <templates host>/health, aborted after the timeout. True when the host answered with a
 * success status; the body is not used.
 */
export async function checkTemplatesHealth(host: string, timeoutMs = TEMPLATES_HEALTH_TIMEOUT_MS): Promise<boolean> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    await request({ baseUrl: host, method: 'GET', endpoint: '/health', signal: controller.signal });
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Whether the templates host is reachable; undefined while unknown or when templates are off.
 * Template pages use it to tell a connection problem from an empty result.
 */
export function useTemplatesHealth(enabled: boolean, host: string): boolean | undefined {
  const { data } = useSWR(enabled && host !== '' ? ['templates-health', host] : null, ([, h]: [string, string]) => checkTemplatesHealth(h), {
    revalidateOnFocus: false,
    revalidateOnReconnect: false,
    revalidateIfStale: false,
  });
  return data;
}
