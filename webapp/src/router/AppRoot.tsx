import { Anchor } from '@mantine/core';
import { useEffect } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation, useMatches } from 'react-router';
import { useCurrentUser } from '@/api/currentUser';
import { usePushConnection } from '@/api/push';
import { useSettings } from '@/api/settings';
import { useTemplatesHealth } from '@/api/templates';
import { ModalHost } from '@/components/modalHost';
import { AppFrame } from './AppFrame';
import { MODALS } from './modalRegistry';
import { resolveNavigation, type AccessContext } from '@/core/access';
import { getRoute, type RouteDefinition } from '@/core/routes';
import { StartupScreen } from '@/components/StartupScreen';
import { showToast } from '@/components/toast';
import { NotFoundView } from '@/views/NotFoundView';

/** Carried by every route object so the root knows which spec route matched. */
export interface RouteHandle {
  route: RouteDefinition;
}

function isRouteHandle(handle: unknown): handle is RouteHandle {
  return typeof handle === 'object' && handle !== null && 'route' in handle;
}

function useCurrentRoute(): RouteDefinition {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i]?.handle;
    if (isRouteHandle(handle)) return handle.route;
  }
  return getRoute('NotFoundView');
}

function useStartupErrorToast(error: unknown): void {
  const { t } = useTranslation();
  useEffect(() => {
    if (!error) return;
    showToast({
      id: 'startup-error',
      type: 'error',
      title: t('startupError'),
      message: (
        <Trans
          i18nKey="startupError.message"
          components={{ refresh: <Anchor component="button" type="button" inherit fw={600} onClick={() => window.location.reload()} /> }}
        />
      ),
      autoClose: false,
    });
  }, [error, t]);
}

/**
 * App startup and route guard (spec 000 §4): settings first, then cookie login and the templates
 * health check, then the setup and access redirects, evaluated again on every navigation.
 */
export function AppRoot() {
  const { settings, isLoaded, error: settingsError } = useSettings();
  const { user, isResolved } = useCurrentUser(isLoaded);
  useTemplatesHealth(isLoaded && settings.templates.enabled, settings.templates.host);
  const ready = isLoaded && isResolved;
  const pushStatus = usePushConnection(ready && user !== null);
  const route = useCurrentRoute();
  const location = useLocation();
  useStartupErrorToast(settingsError);

  if (!ready) return <StartupScreen loading={!settingsError} />;

  const access: AccessContext = {
    user,
    userManagementEnabled: settings.userManagement.enabled,
    publicApiEnabled: settings.publicApi.enabled,
    templatesEnabled: settings.templates.enabled,
  };
  const outcome = resolveNavigation({
    route,
    context: access,
    showSetupOnFirstLoad: settings.userManagement.showSetupOnFirstLoad,
    location,
  });
  if (outcome.kind === 'redirect') return <Navigate to={outcome.to} replace />;
  if (outcome.kind === 'notFound') return <NotFoundView />;
  // The named modals are drawn on every page, the settings pages' About included.
  const modals = user ? <ModalHost registry={MODALS} /> : null;
  if (route.layout === 'bare') {
    return (
      <>
        <Outlet />
        {modals}
      </>
    );
  }
  return (
    <>
      <AppFrame route={route.name} settings={settings} access={access} pushStatus={pushStatus}>
        <Outlet />
      </AppFrame>
      {modals}
    </>
  );
}
