import { useCallback } from 'react';
import useSWR, { useSWRConfig, type KeyedMutator } from 'swr';
import type { SurveyAnswers } from '@/core/personalization';
import type { User } from '@/core/user';
import { CURRENT_USER_KEY } from './currentUser';
import { ResponseError, restApi, type RequestData } from './fetcher';
import { SETTINGS_KEY } from './settings';

/** The account calls of spec 000 §7, with n8n's paths and payloads. */

export interface SignInPayload {
  email: string;
  password: string;
}

export interface OwnerPayload {
  email: string;
  firstName: string;
  lastName: string;
  password: string;
}

export interface SignUpPayload {
  inviterId: string;
  inviteeId: string;
  /** The invitation link's single-use token. */
  token: string;
  firstName: string;
  lastName: string;
  password: string;
}

export interface ProfilePayload {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
}

export interface InviterNames {
  inviter: { firstName: string | null; lastName: string | null };
}

/** One entry of POST /users' answer: the invited user, with an error when the mail failed. */
export interface InviteResult {
  user: { id: string | null; email: string; error?: string };
}

export const signIn = (payload: SignInPayload) => restApi.request<User>('POST', '/login', { ...payload });
export const setUpOwner = (payload: OwnerPayload) => restApi.request<User>('POST', '/owner', { ...payload });
export const skipOwnerSetup = () => restApi.request<unknown>('POST', '/owner/skip-setup');
export const resolveSignupToken = (inviterId: string, inviteeId: string, token: string) =>
  restApi.get<InviterNames>('/resolve-signup-token', { inviterId, inviteeId, token });
const ONCE = { revalidateOnFocus: false, revalidateOnReconnect: false, revalidateIfStale: false, shouldRetryOnError: false } as const;

export interface TokenCheck<T> {
  data: T | undefined;
  error: unknown;
}

/** Checks an invitation link once (GET /resolve-signup-token); nothing is asked without both ids and the token. */
export function useSignupToken(inviterId: string, inviteeId: string, token: string): TokenCheck<InviterNames> {
  const { data, error } = useSWR(
    inviterId && inviteeId && token ? ['/resolve-signup-token', inviterId, inviteeId, token] : null,
    ([, inviter, invitee, t]: [string, string, string, string]) => resolveSignupToken(inviter, invitee, t),
    ONCE,
  );
  return { data, error };
}

/** Checks a password reset link once (GET /resolve-password-token). */
export function usePasswordToken(token: string, userId: string): TokenCheck<true> {
  const { data, error } = useSWR(token && userId ? ['/resolve-password-token', token, userId] : null, async ([, t, u]: [string, string, string]) => {
    await resolvePasswordToken(t, u);
    return true as const;
  }, ONCE);
  return { data, error };
}

export const signUp = ({ inviteeId, ...payload }: SignUpPayload) => restApi.request<User>('POST', `/users/${encodeURIComponent(inviteeId)}`, payload);
export const sendPasswordResetMail = (email: string) => restApi.request<unknown>('POST', '/forgot-password', { email });
export const resolvePasswordToken = (token: string, userId: string) => restApi.get<unknown>('/resolve-password-token', { token, userId });
export const resetPassword = (token: string, userId: string, password: string) =>
  restApi.request<unknown>('POST', '/change-password', { token, userId, password });
export const updateProfile = (payload: ProfilePayload) => restApi.request<User>('PATCH', '/me', { ...payload });
export const changeOwnPassword = (currentPassword: string, newPassword: string) =>
  restApi.request<unknown>('PATCH', '/me/password', { currentPassword, newPassword });
export const submitSurvey = (answers: SurveyAnswers) => restApi.request<unknown>('POST', '/me/survey', { ...answers });
// POST /users takes a JSON list; the client's body type names objects, the wire format is the same.
export const inviteUsers = (emails: readonly string[]) =>
  restApi.request<InviteResult[]>('POST', '/users', emails.map((email) => ({ email, role: 'member' })) as unknown as RequestData);
export const reinviteUser = (id: string) => restApi.request<unknown>('POST', `/users/${encodeURIComponent(id)}/reinvite`);
export const deleteUser = (id: string, transferId?: string) =>
  restApi.request<unknown>('DELETE', `/users/${encodeURIComponent(id)}`, transferId ? { transferId } : undefined);

/**
 * How many workflows and credentials exist before owner setup, so setup can say they will be
 * moved to the new owner. Lists the server does not offer count as empty.
 */
export async function countExistingData(): Promise<{ workflows: number; credentials: number }> {
  const count = async (endpoint: string) => {
    try {
      const list = await restApi.get<unknown>(endpoint);
      return Array.isArray(list) ? list.length : 0;
    } catch (error) {
      if (error instanceof ResponseError && error.httpStatus === 404) return 0;
      throw error;
    }
  };
  const [workflows, credentials] = await Promise.all([count('/workflows'), count('/credentials')]);
  return { workflows, credentials };
}

export interface SessionUpdate {
  /** The user a call signed the browser in as. */
  setUser: (user: User) => Promise<void>;
  /** Reloads the settings (owner setup and skipping it change whether setup is still offered). */
  refreshSettings: () => Promise<void>;
  /** Asks the server again who is signed in. */
  reloadUser: () => Promise<void>;
}

/** Applies an account call's answer to the session the rest of the app reads. */
export function useSessionUpdate(): SessionUpdate {
  const { mutate } = useSWRConfig();
  const setUser = useCallback(async (user: User) => {
    await mutate(CURRENT_USER_KEY, user, { revalidate: false });
  }, [mutate]);
  const refreshSettings = useCallback(async () => {
    await mutate(SETTINGS_KEY);
  }, [mutate]);
  const reloadUser = useCallback(async () => {
    await mutate(CURRENT_USER_KEY);
  }, [mutate]);
  return { setUser, refreshSettings, reloadUser };
}

export const USERS_KEY = '/users';

export interface UsersState {
  users: User[] | undefined;
  error: unknown;
  isLoading: boolean;
  reload: KeyedMutator<User[]>;
}

/** GET /users: every user, pending invitations included. */
export function useUsers(enabled = true): UsersState {
  const { data, error, isLoading, mutate } = useSWR<User[]>(enabled ? USERS_KEY : null, () => restApi.get<User[]>('/users'), {
    revalidateOnFocus: false,
  });
  return { users: data, error, isLoading, reload: mutate };
}

export const API_KEY_KEY = '/me/api-key';

export interface ApiKeyState {
  apiKey: string | null | undefined;
  error: unknown;
  isLoading: boolean;
  setApiKey: KeyedMutator<string | null>;
}

/** GET /me/api-key: the key (shortened once it has been shown), or null when there is none. */
export function useApiKey(): ApiKeyState {
  const { data, error, isLoading, mutate } = useSWR<string | null>(
    API_KEY_KEY,
    async () => (await restApi.get<{ apiKey: string | null }>('/me/api-key')).apiKey ?? null,
    { revalidateOnFocus: false, shouldRetryOnError: false },
  );
  return { apiKey: data, error, isLoading, setApiKey: mutate };
}

export const createApiKey = async () => (await restApi.request<{ apiKey: string }>('POST', '/me/api-key')).apiKey;
export const deleteApiKey = () => restApi.request<unknown>('DELETE', '/me/api-key');
