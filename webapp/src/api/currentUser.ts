import { useCallback } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import type { User } from '../core/user';
import { ResponseError, restApi } from './fetcher';

export const CURRENT_USER_KEY = '/login';

/** Cookie login: the signed-in user, or null when the session cookie is missing or expired (401). */
export async function loginWithCookie(): Promise<User | null> {
  try {
    return await restApi.get<User>('/login');
  } catch (error) {
    if (error instanceof ResponseError && error.httpStatus === 401) return null;
    throw error;
  }
}

export interface CurrentUserState {
  user: User | null;
  /** True once the login call has answered (with a user, null, or an error). */
  isResolved: boolean;
  error: unknown;
}

/**
 * The signed-in user. Pass enabled=false to hold the call back (startup logs in only after the
 * settings arrived). Sign-in, sign-up and owner setup update it with `mutate(CURRENT_USER_KEY, user)`.
 */
export function useCurrentUser(enabled = true): CurrentUserState {
  const { data, error } = useSWR<User | null>(enabled ? CURRENT_USER_KEY : null, loginWithCookie, {
    revalidateOnFocus: false,
    revalidateOnReconnect: false,
    revalidateIfStale: false,
    shouldRetryOnError: false,
  });
  return { user: data ?? null, isResolved: data !== undefined || error !== undefined, error };
}

/** Signs out (POST /logout) and clears the current user. */
export function useSignOut(): () => Promise<void> {
  const { mutate } = useSWRConfig();
  return useCallback(async () => {
    await restApi.request('POST', '/logout');
    await mutate(CURRENT_USER_KEY, null, { revalidate: false });
  }, [mutate]);
}
