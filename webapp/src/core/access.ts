import { isLocalRedirect } from './redirect';
import { getRoute, routePath, type AccessConditions, type AccessRule, type LoginStatus, type RouteDefinition, type RouteName } from './routes';
import { userRole, type Role, type User } from './user';

/** Everything a route rule depends on. */
export interface AccessContext {
  user: User | null;
  userManagementEnabled: boolean;
  publicApiEnabled: boolean;
  templatesEnabled: boolean;
}

function conditionsMatch(conditions: AccessConditions, loginStatus: LoginStatus, role: Role | null, context: AccessContext): boolean {
  if (conditions.loginStatus?.includes(loginStatus)) return true;
  if (role !== null && conditions.role?.includes(role)) return true;
  if (conditions.userManagementEnabled !== undefined && conditions.userManagementEnabled === context.userManagementEnabled) return true;
  if (conditions.publicApiEnabled !== undefined && conditions.publicApiEnabled === context.publicApiEnabled) return true;
  return false;
}

/** Evaluates a route rule: deny first, then allow; nothing allowing means denied. */
export function isAuthorized(rule: AccessRule, context: AccessContext): boolean {
  const loginStatus: LoginStatus = context.user ? 'loggedIn' : 'loggedOut';
  const role = context.user ? userRole(context.user) : null;
  if (rule.deny && conditionsMatch(rule.deny, loginStatus, role, context)) return false;
  if (rule.allow && conditionsMatch(rule.allow, loginStatus, role, context)) return true;
  return false;
}

export type AccessDecision = 'allowed' | 'denied' | 'notFound';

/**
 * The outcome for one route: its rule first, then the templates flag, so a signed-out visitor of a
 * template page is sent to sign in rather than told the page does not exist.
 */
export function evaluateRouteAccess(route: RouteDefinition, context: AccessContext): AccessDecision {
  if (route.access === null) return 'allowed';
  if (!isAuthorized(route.access, context)) return 'denied';
  if (route.requiresTemplates && !context.templatesEnabled) return 'notFound';
  return 'allowed';
}

export function canAccessRoute(name: RouteName, context: AccessContext): boolean {
  return evaluateRouteAccess(getRoute(name), context) === 'allowed';
}

export interface NavigationInput {
  route: RouteDefinition;
  context: AccessContext;
  /** settings.userManagement.showSetupOnFirstLoad */
  showSetupOnFirstLoad: boolean;
  location: { pathname: string; search: string };
}

export type NavigationOutcome =
  | { kind: 'render' }
  | { kind: 'notFound' }
  | { kind: 'redirect'; to: string };

/**
 * What to do when a route is entered (app startup steps 3 and 4 of spec 000 §4, applied on every
 * navigation): go to setup while it is pending, send signed-out users to sign in with a way back,
 * and send signed-in users who may not see a page home or to a local `redirect` query target.
 */
export function resolveNavigation({ route, context, showSetupOnFirstLoad, location }: NavigationInput): NavigationOutcome {
  if (context.userManagementEnabled && showSetupOnFirstLoad) {
    // The setup page is reachable by anyone while setup is pending; checking its rule here could
    // bounce a signed-out visitor between sign-in and setup.
    if (route.name === 'SetupView') return { kind: 'render' };
    return { kind: 'redirect', to: routePath('SetupView') };
  }

  const decision = evaluateRouteAccess(route, context);
  if (decision === 'allowed') return { kind: 'render' };
  if (decision === 'notFound') return { kind: 'notFound' };

  const redirectQuery = new URLSearchParams(location.search).get('redirect');
  if (!context.user) {
    const back = redirectQuery ?? `${location.pathname}${location.search}`;
    return { kind: 'redirect', to: `${routePath('SigninView')}?${new URLSearchParams({ redirect: back }).toString()}` };
  }

  const current = `${location.pathname}${location.search}`;
  if (isLocalRedirect(redirectQuery) && redirectQuery !== current) {
    return { kind: 'redirect', to: redirectQuery };
  }
  return { kind: 'redirect', to: routePath('Homepage') };
}

/**
 * Where the sidebar's settings entry goes: personal settings, else users settings (the default
 * user), else API settings; null hides the entry.
 */
export function settingsEntryTarget(context: AccessContext): string | null {
  const candidates: RouteName[] = ['PersonalSettings', 'UsersSettings', 'APISettings'];
  const target = candidates.find((name) => canAccessRoute(name, context));
  return target ? routePath(target) : null;
}
