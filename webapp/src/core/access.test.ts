import { describe, expect, it } from 'vitest';
import { evaluateRouteAccess, resolveNavigation, settingsEntryTarget, type AccessContext, type AccessDecision } from './access';
import { getRoute, ROUTES, type RouteName } from './routes';
import type { User } from './user';

type UserState = 'loggedOut' | 'default' | 'owner' | 'member';

const USERS: Record<UserState, User | null> = {
  loggedOut: null,
  default: { id: 'd', email: null, firstName: null, lastName: null, globalRole: { name: 'owner' }, isPending: true },
  owner: { id: 'o', email: 'owner@example.com', firstName: 'Olga', lastName: 'Owner', globalRole: { name: 'owner' }, isPending: false },
  member: { id: 'm', email: 'member@example.com', firstName: 'Max', lastName: 'Member', globalRole: { name: 'member' }, isPending: false },
};

interface Flags {
  um: boolean;
  api: boolean;
  templates: boolean;
}

// Spec 000 §2 and §6, written out independently of the rule data under test.
const EXPECTED: Record<RouteName, (state: UserState, flags: Flags) => AccessDecision> = (() => {
  const allowIf = (condition: boolean): AccessDecision => (condition ? 'allowed' : 'denied');
  const loggedIn = (state: UserState) => allowIf(state !== 'loggedOut');
  const loggedOut = (state: UserState) => allowIf(state === 'loggedOut');
  const templates = (state: UserState, flags: Flags): AccessDecision =>
    state === 'loggedOut' ? 'denied' : flags.templates ? 'allowed' : 'notFound';
  return {
    Homepage: loggedIn,
    NodeViewNew: loggedIn,
    NodeViewExisting: loggedIn,
    ExecutionById: loggedIn,
    WorkflowDemo: loggedIn,
    WorkflowTemplate: templates,
    TemplatesSearchView: templates,
    TemplatesWorkflowView: templates,
    TemplatesCollectionView: templates,
    SigninView: loggedOut,
    SignupView: loggedOut,
    ForgotMyPasswordView: loggedOut,
    ChangePasswordView: loggedOut,
    SetupView: (state, flags) => allowIf(state === 'default' && flags.um),
    SettingsRedirect: () => 'allowed',
    PersonalSettings: (state) => allowIf(state === 'owner' || state === 'member'),
    UsersSettings: (state, flags) => allowIf((state === 'default' || state === 'owner') && flags.um),
    APISettings: (state, flags) => allowIf(state !== 'loggedOut' && flags.api),
    NotFoundView: () => 'allowed',
  };
})();

const EXPECTED_PATHS: Record<RouteName, string> = {
  Homepage: '/',
  NodeViewNew: '/workflow',
  NodeViewExisting: '/workflow/:name/:action?',
  ExecutionById: '/execution/:id',
  WorkflowDemo: '/workflows/demo',
  WorkflowTemplate: '/workflows/templates/:id',
  TemplatesSearchView: '/templates',
  TemplatesWorkflowView: '/templates/:id',
  TemplatesCollectionView: '/collections/:id',
  SigninView: '/signin',
  SignupView: '/signup',
  SetupView: '/setup',
  ForgotMyPasswordView: '/forgot-password',
  ChangePasswordView: '/change-password',
  SettingsRedirect: '/settings',
  PersonalSettings: '/settings/personal',
  UsersSettings: '/settings/users',
  APISettings: '/settings/api',
  NotFoundView: '*',
};

function context(state: UserState, flags: Flags): AccessContext {
  return { user: USERS[state], userManagementEnabled: flags.um, publicApiEnabled: flags.api, templatesEnabled: flags.templates };
}

const STATES: UserState[] = ['loggedOut', 'default', 'owner', 'member'];
const FLAG_SETS: Flags[] = [false, true].flatMap((um) =>
  [false, true].flatMap((api) => [false, true].map((templates) => ({ um, api, templates }))),
);

describe('route table', () => {
  it('holds exactly the routes of spec 000 §2 with their paths', () => {
    expect(Object.fromEntries(ROUTES.map((route) => [route.name, route.path]))).toEqual(EXPECTED_PATHS);
  });

  it('redirects / to the new workflow and /settings to personal settings', () => {
    expect(getRoute('Homepage').redirectTo).toBe('/workflow');
    expect(getRoute('SettingsRedirect').redirectTo).toBe('/settings/personal');
  });

  it('lets only the two workflow canvases edit', () => {
    expect(ROUTES.filter((route) => route.canvasEditable).map((route) => route.name)).toEqual(['NodeViewNew', 'NodeViewExisting']);
  });
});

describe.each(ROUTES.map((route) => route.name))('access to %s', (name) => {
  const cases = STATES.flatMap((state) => FLAG_SETS.map((flags) => ({ state, flags })));
  it.each(cases)('$state with $flags', ({ state, flags }) => {
    expect(evaluateRouteAccess(getRoute(name), context(state, flags))).toBe(EXPECTED[name](state, flags));
  });
});

describe('resolveNavigation', () => {
  const allOn: Flags = { um: true, api: true, templates: true };
  const nav = (name: RouteName, state: UserState, pathname: string, search = '', flags: Flags = allOn, showSetup = false) =>
    resolveNavigation({ route: getRoute(name), context: context(state, flags), showSetupOnFirstLoad: showSetup, location: { pathname, search } });

  it('renders an allowed route', () => {
    expect(nav('NodeViewNew', 'owner', '/workflow')).toEqual({ kind: 'render' });
  });

  it('sends a signed-out visitor to sign in with the way back', () => {
    expect(nav('NodeViewExisting', 'loggedOut', '/workflow/42', '?x=1')).toEqual({
      kind: 'redirect',
      to: '/signin?redirect=%2Fworkflow%2F42%3Fx%3D1',
    });
  });

  it('keeps an existing redirect query when sending a signed-out visitor to sign in', () => {
    expect(nav('PersonalSettings', 'loggedOut', '/settings/personal', '?redirect=%2Fworkflow%2F7')).toEqual({
      kind: 'redirect',
      to: '/signin?redirect=%2Fworkflow%2F7',
    });
  });

  it('honours a local redirect query for a signed-in user on sign-in', () => {
    expect(nav('SigninView', 'owner', '/signin', '?redirect=%2Fworkflow%2F42')).toEqual({ kind: 'redirect', to: '/workflow/42' });
  });

  it.each(['//evil.com', '/\\evil.com', 'http://x', 'https://evil.com/workflow'])('ignores the non-local redirect %j', (target) => {
    expect(nav('SigninView', 'owner', '/signin', `?${new URLSearchParams({ redirect: target }).toString()}`)).toEqual({
      kind: 'redirect',
      to: '/',
    });
  });

  it('does not redirect to the page it is leaving', () => {
    expect(nav('SigninView', 'member', '/signin', '?redirect=%2Fsignin')).toEqual({ kind: 'redirect', to: '/signin' });
    expect(nav('SigninView', 'member', '/signin', '')).toEqual({ kind: 'redirect', to: '/' });
  });

  it('sends a signed-in user without access home', () => {
    expect(nav('UsersSettings', 'member', '/settings/users')).toEqual({ kind: 'redirect', to: '/' });
    expect(nav('PersonalSettings', 'default', '/settings/personal')).toEqual({ kind: 'redirect', to: '/' });
  });

  it('goes to setup while user management awaits owner setup', () => {
    expect(nav('NodeViewNew', 'default', '/workflow', '', allOn, true)).toEqual({ kind: 'redirect', to: '/setup' });
    expect(nav('SigninView', 'loggedOut', '/signin', '', allOn, true)).toEqual({ kind: 'redirect', to: '/setup' });
  });

  it('renders setup while it is pending, whoever asks', () => {
    expect(nav('SetupView', 'default', '/setup', '', allOn, true)).toEqual({ kind: 'render' });
    expect(nav('SetupView', 'loggedOut', '/setup', '', allOn, true)).toEqual({ kind: 'render' });
  });

  it('ignores the setup flag when user management is off', () => {
    const umOff = { ...allOn, um: false };
    expect(nav('NodeViewNew', 'default', '/workflow', '', umOff, true)).toEqual({ kind: 'render' });
    expect(nav('SetupView', 'default', '/setup', '', umOff, true)).toEqual({ kind: 'redirect', to: '/' });
  });

  it('shows not-found for template pages while templates are disabled', () => {
    const templatesOff = { ...allOn, templates: false };
    expect(nav('TemplatesSearchView', 'owner', '/templates/', '', templatesOff)).toEqual({ kind: 'notFound' });
    expect(nav('WorkflowTemplate', 'member', '/workflows/templates/3', '', templatesOff)).toEqual({ kind: 'notFound' });
    expect(nav('TemplatesSearchView', 'loggedOut', '/templates/', '', templatesOff)).toEqual({
      kind: 'redirect',
      to: '/signin?redirect=%2Ftemplates%2F',
    });
  });
});

describe('settingsEntryTarget', () => {
  it.each<[UserState, Flags, string | null]>([
    ['owner', { um: true, api: true, templates: false }, '/settings/personal'],
    ['member', { um: true, api: false, templates: false }, '/settings/personal'],
    ['default', { um: true, api: true, templates: false }, '/settings/users'],
    ['default', { um: false, api: true, templates: false }, '/settings/api'],
    ['default', { um: false, api: false, templates: false }, null],
    ['loggedOut', { um: true, api: true, templates: true }, null],
  ])('%s with %j goes to %s', (state, flags, expected) => {
    expect(settingsEntryTarget(context(state, flags))).toBe(expected);
  });
});
