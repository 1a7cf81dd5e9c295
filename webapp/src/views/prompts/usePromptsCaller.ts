import { useCurrentUser } from '@/api/currentUser';
import type { PromptsCaller } from '@/api/prompts';
import { useSettings } from '@/api/settings';

/** The instance and the signed-in user, as the prompts host is told them; null when signed out. */
export function usePromptsCaller(): PromptsCaller | null {
  const { settings } = useSettings();
  const { user } = useCurrentUser();
  return user ? { settings, userId: user.id } : null;
}
