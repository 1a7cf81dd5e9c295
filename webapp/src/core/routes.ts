import type { Role } from './user';

export type LoginStatus = 'loggedIn' | 'loggedOut';

/**
 * One side of a route rule. The side applies when any listed condition holds: the login status is
 * listed, the user's role is listed, or a feature flag equals the given value.
 */
export interface AccessConditions {
  loginStatus?: readonly LoginStatus[];
  role?: readonly Role[];
  /** Matches when user management's enabled flag equals this value. */
  userManagementEnabled?: boolean;
  /** Matches when the public API's enabled flag equals this value. */
  publicApiEnabled?: boolean;
}

/** Deny is checked before allow; a route nothing allows is denied. */
export interface AccessRule {
  allow?: AccessConditions;
  deny?: AccessConditions;
}

export type RouteName =
  | 'Homepage'
  | 'NodeViewNew'
  | 'NodeViewExisting'
  | 'ExecutionById'
  | 'WorkflowDemo'
  | 'WorkflowTemplate'
  | 'TemplatesSearchView'
  | 'TemplatesWorkflowView'
  | 'TemplatesCollectionView'
  | 'SigninView'
  | 'SignupView'
  | 'SetupView'
  | 'ForgotMyPasswordView'
  | 'ChangePasswordView'
  | 'SettingsRedirect'
  | 'PersonalSettings'
  | 'UsersSettings'
  | 'APISettings'
  | 'NotFoundView';

/** `app` routes render inside the frame with the main sidebar; `bare` routes fill the page. */
export type RouteLayout = 'app' | 'bare';

export interface RouteDefinition {
  name: RouteName;
  /** react-router path pattern, relative to the base path. */
  path: string;
  /** Null for a plain redirect: the target route's rule applies after it. */
  access: AccessRule | null;
  /** When templates are disabled the route shows the not-found view. */
  requiresTemplates?: boolean;
  /** Where a plain redirect goes. */
  redirectTo?: string;
  layout: RouteLayout;
  /** Only the new- and existing-workflow canvases can be edited. */
  canvasEditable?: boolean;
}

const loggedIn: AccessRule = { allow: { loginStatus: ['loggedIn'] } };
const loggedOut: AccessRule = { allow: { loginStatus: ['loggedOut'] } };

/** The route table of spec 000 §2, in matching-irrelevant order (react-router ranks paths). */
export const ROUTES: readonly RouteDefinition[] = [
  { name: 'Homepage', path: '/', access: loggedIn, redirectTo: '/workflow', layout: 'app' },
  { name: 'NodeViewNew', path: '/workflow', access: loggedIn, layout: 'app', canvasEditable: true },
  { name: 'NodeViewExisting', path: '/workflow/:name/:action?', access: loggedIn, layout: 'app', canvasEditable: true },
  { name: 'ExecutionById', path: '/execution/:id', access: loggedIn, layout: 'app' },
  { name: 'WorkflowDemo', path: '/workflows/demo', access: loggedIn, layout: 'bare' },
  { name: 'WorkflowTemplate', path: '/workflows/templates/:id', access: loggedIn, requiresTemplates: true, layout: 'app' },
  { name: 'TemplatesSearchView', path: '/templates', access: loggedIn, requiresTemplates: true, layout: 'app' },
  { name: 'TemplatesWorkflowView', path: '/templates/:id', access: loggedIn, requiresTemplates: true, layout: 'app' },
  { name: 'TemplatesCollectionView', path: '/collections/:id', access: loggedIn, requiresTemplates: true, layout: 'app' },
  { name: 'SigninView', path: '/signin', access: loggedOut, layout: 'bare' },
  { name: 'SignupView', path: '/signup', access: loggedOut, layout: 'bare' },
  {
    name: 'SetupView',
    path: '/setup',
    access: { allow: { role: ['default'] }, deny: { userManagementEnabled: false } },
    layout: 'bare',
  },
  { name: 'ForgotMyPasswordView', path: '/forgot-password', access: loggedOut, layout: 'bare' },
  { name: 'ChangePasswordView', path: '/change-password', access: loggedOut, layout: 'bare' },
  { name: 'SettingsRedirect', path: '/settings', access: null, redirectTo: '/settings/personal', layout: 'bare' },
  {
    name: 'PersonalSettings',
    path: '/settings/personal',
    access: { allow: { loginStatus: ['loggedIn'] }, deny: { role: ['default'] } },
    layout: 'bare',
  },
  {
    name: 'UsersSettings',
    path: '/settings/users',
    access: { allow: { role: ['default', 'owner'] }, deny: { userManagementEnabled: false } },
    layout: 'bare',
  },
  {
    name: 'APISettings',
    path: '/settings/api',
    access: { allow: { loginStatus: ['loggedIn'] }, deny: { publicApiEnabled: false } },
    layout: 'bare',
  },
  { name: 'NotFoundView', path: '*', access: { allow: { loginStatus: ['loggedIn', 'loggedOut'] } }, layout: 'bare' },
];

const byName = new Map<RouteName, RouteDefinition>(ROUTES.map((route) => [route.name, route]));

export function getRoute(name: RouteName): RouteDefinition {
  const route = byName.get(name);
  if (!route) throw new Error(`Unknown route ${name}`);
  return route;
}

/** A route path without parameters, for links and redirects. */
export function routePath(name: RouteName): string {
  return getRoute(name).path;
}
