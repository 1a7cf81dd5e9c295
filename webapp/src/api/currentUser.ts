import { useCallback } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import type { User } from '@/core/user';
import { ResponseError, restApi } from './fetcher';

export const CURRENT_USER_KEY = '/login';

/** The query parameter of the setup link that Flowmill logs while no owner account exists. */
const SETUP_TOKEN_PARAM = 'setupToken';

/**
 * The setup token of the page's address, taken out of the address bar so it is not kept in the
 * history or shared along with a link; undefined when there is none.
 */
function takeSetupToken(): string | undefined {
  const url = new URL(window.location.href);
  const token = url.searchParams.get(SETUP_TOKEN_PARAM);
  if (!token) return undefined;
  url.searchParams.delete(SETUP_TOKEN_PARAM);
  window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
  return token;
}

/**
 * Cookie login: the signed-in user, or null when the session cookie is missing or expired (401).
 * A setup link's token goes along, for the first visit from another machine before owner setup.
 */
export async function loginWithCookie(): Promise<User | null> {
  const setupToken = takeSetupToken();
  try {
    return await restApi.get<User>('/login', setupToken ? { [SETUP_TOKEN_PARAM]: setupToken } : undefined);
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
