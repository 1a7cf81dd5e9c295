import { useCurrentUser } from '@/api/currentUser';
import { useSettings } from '@/api/settings';
import type { AccessContext } from '@/core/access';
import type { Settings } from '@/core/settings';

/** The settings and access context the guard already loaded, for screens that need them. */
export function useAccess(): { settings: Settings; access: AccessContext } {
  const { settings } = useSettings();
  const { user } = useCurrentUser();
  return {
    settings,
    access: {
      user,
      userManagementEnabled: settings.userManagement.enabled,
      publicApiEnabled: settings.publicApi.enabled,
      templatesEnabled: settings.templates.enabled,
    },
  };
}
