import useSWR from 'swr';
import { readPrompts, type PromptsData } from '@/core/prompts/prompts';
import type { Settings } from '@/core/settings';
import { request, restApi } from './fetcher';

/** Who asks: the prompts host knows instances and users by these headers (spec 000 §7). */
export interface PromptsCaller {
  settings: Settings;
  userId: string;
}

function call(caller: PromptsCaller, method: 'GET' | 'POST', endpoint: string, data?: Record<string, unknown>): Promise<unknown> {
  const { host } = caller.settings.prompts;
  // The built-in host is the api's own (a path): it reads the session cookie, an outside host gets none.
  const own = host.startsWith('/');
  return request({
    baseUrl: host,
    method,
    endpoint,
    data,
    credentials: own ? 'same-origin' : 'omit',
    headers: { 'n8n-instance-id': caller.settings.instanceId, 'n8n-user-id': caller.userId },
  });
}

/** Asks the prompts host which prompt to show (GET /prompts); failures show nothing. */
export async function fetchPrompts(caller: PromptsCaller): Promise<PromptsData> {
  try {
    return readPrompts(await call(caller, 'GET', '/prompts'));
  } catch {
    return readPrompts(null);
  }
}

/** Sends the contact prompt's e-mail (POST /prompt). */
export async function submitContactInfo(caller: PromptsCaller, email: string): Promise<void> {
  await call(caller, 'POST', '/prompt', { email });
}

/** Sends a value survey answer (POST /value-survey): the score, then again with the e-mail. */
export async function submitValueSurvey(caller: PromptsCaller, answer: { value: number; email?: string }): Promise<void> {
  await call(caller, 'POST', '/value-survey', answer);
}

/** An answer the built-in prompts host kept, as the owner lists them. */
export interface PromptAnswer {
  id: number;
  kind: 'contact' | 'valueSurvey';
  userEmail: string;
  email: string;
  value?: number;
  createdAt: string;
}

/** The built-in host's answers, newest first (owner only). */
export function usePromptAnswers(enabled: boolean) {
  return useSWR<PromptAnswer[]>(enabled ? '/prompt-answers' : null, () => restApi.get<PromptAnswer[]>('/prompt-answers'), { revalidateOnFocus: false });
}
