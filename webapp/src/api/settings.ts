import useSWR from 'swr';
import { DEFAULT_SETTINGS, mergeSettings, type Settings } from '@/core/settings';
import { restApi } from './fetcher';

export const SETTINGS_KEY = '/settings';

export interface SettingsState {
  /** The server's settings, or the client defaults until they arrive. */
  settings: Settings;
  isLoaded: boolean;
  error: unknown;
}

/**
 * Server settings (GET /settings), loaded once per page. No automatic retry: a failure shows the
 * startup error, which asks the user to refresh.
 */
export function useSettings(): SettingsState {
  const { data, error } = useSWR<Settings>(SETTINGS_KEY, async () => mergeSettings(await restApi.get<Partial<Settings>>('/settings')), {
    revalidateOnFocus: false,
    revalidateOnReconnect: false,
    revalidateIfStale: false,
    shouldRetryOnError: false,
  });
  return { settings: data ?? DEFAULT_SETTINGS, isLoaded: data !== undefined, error };
}
