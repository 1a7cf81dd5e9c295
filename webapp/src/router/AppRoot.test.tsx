import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS, type Settings } from '@/core/settings';
import type { User } from '@/core/user';
import { FakeEventSource } from '@/test/fakeEventSource';
import { currentUrl, renderApp, setUpAppTests } from '@/test/renderApp';

const OWNER: User = { id: '1', firstName: 'Olga', lastName: 'Owner', email: 'olga@example.com', globalRole: { name: 'owner' }, isPending: false };

interface Backend {
  settings?: Partial<Settings> | 'down';
  user?: User | null;
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function stubBackend({ settings = {}, user = null }: Backend) {
  const fetchMock = vi.fn<typeof fetch>(async (input) => {
    const url = String(input);
    if (url === '/rest/settings') {
      if (settings === 'down') throw new TypeError('Failed to fetch');
      return json({ data: { ...DEFAULT_SETTINGS, ...settings } });
    }
    if (url === '/rest/login') return user ? json({ data: user }) : json({ code: 401, message: 'Unauthorized' }, 401);
    if (url.endsWith('/health')) return json({ status: 'OK' });
    return json({ code: 404, message: 'not found' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('app startup and route guard', () => {
  setUpAppTests();

  it('shows a persistent toast when the settings cannot be loaded', async () => {
    stubBackend({ settings: 'down' });
    renderApp('/workflow');
    const toast = await screen.findByTestId('toast');
    expect(toast).toHaveTextContent('Could not connect to server. Refresh to try again');
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeInTheDocument();
    expect(screen.queryByTestId('main-sidebar')).not.toBeInTheDocument();
  });

  it('loads settings before logging in', async () => {
    const fetchMock = stubBackend({ user: OWNER });
    renderApp('/workflow');
    await screen.findByTestId('main-sidebar');
    const urls = fetchMock.mock.calls.map(([input]) => String(input));
    expect(urls.slice(0, 2)).toEqual(['/rest/settings', '/rest/login']);
  });

  it('sends a signed-out visitor to sign in with a redirect back', async () => {
    stubBackend({ user: null });
    const { router } = renderApp('/workflow/42');
    await screen.findByRole('heading', { name: 'Sign in' });
    expect(currentUrl(router)).toBe('/signin?redirect=%2Fworkflow%2F42');
  });

  it('sends a signed-in user on sign-in to the local redirect target, inside the frame', async () => {
    stubBackend({ user: OWNER });
    const { router } = renderApp('/signin?redirect=%2Fworkflow%2F42');
    await screen.findByTestId('main-sidebar');
    expect(currentUrl(router)).toBe('/workflow/42');
    expect(screen.getByTestId('workflow-menu')).toHaveAttribute('data-active', 'true');
  });

  it('refuses a protocol-relative redirect target', async () => {
    stubBackend({ user: OWNER });
    const { router } = renderApp('/signin?redirect=%2F%2Fevil.com');
    await screen.findByTestId('main-sidebar');
    expect(currentUrl(router)).toBe('/workflow');
  });

  it('goes to setup when user management needs owner setup', async () => {
    stubBackend({
      settings: { userManagement: { enabled: true, showSetupOnFirstLoad: true, smtpSetup: false } },
      user: { id: 'd', email: null, globalRole: { name: 'owner' }, isPending: true },
    });
    const { router } = renderApp('/workflow');
    await screen.findByRole('heading', { name: 'Set up owner account' });
    expect(currentUrl(router)).toBe('/setup');
  });

  it('redirects /settings to personal settings', async () => {
    stubBackend({ user: OWNER });
    const { router } = renderApp('/settings');
    await screen.findByRole('heading', { name: 'Personal settings' });
    expect(currentUrl(router)).toBe('/settings/personal');
  });

  it('shows not-found on template pages while templates are disabled', async () => {
    stubBackend({ user: OWNER, settings: { templates: { enabled: false, host: '' } } });
    const { router } = renderApp('/templates/');
    await screen.findByRole('heading', { name: "Oops, couldn't find that" });
    expect(currentUrl(router)).toBe('/templates/');
  });

  it('checks the templates host when templates are enabled and shows the Templates entry', async () => {
    const fetchMock = stubBackend({ user: OWNER, settings: { templates: { enabled: true, host: 'https://templates.example/' } } });
    renderApp('/templates/');
    await screen.findByRole('heading', { name: 'Workflow templates' });
    expect(screen.getByRole('link', { name: 'Templates' })).toBeInTheDocument();
    await waitFor(() => expect(fetchMock.mock.calls.map(([input]) => String(input))).toContain('https://templates.example/health'));
  });

  it('shows the unknown-path page to signed-out visitors too', async () => {
    stubBackend({ user: null });
    const { router } = renderApp('/no/such/page');
    await screen.findByRole('link', { name: 'Go back' });
    expect(currentUrl(router)).toBe('/no/such/page');
  });

  it('connects the push channel once signed in and shows when the connection is lost', async () => {
    stubBackend({ user: OWNER });
    renderApp('/workflow');
    await screen.findByTestId('main-sidebar');
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    const source = FakeEventSource.latest();
    expect(source.url).toMatch(/^\/rest\/push\?sessionId=[0-9a-f]{20}$/);
    expect(source.withCredentials).toBe(true);
    expect(document.body.dataset.pushConnected).toBe('false');
    expect(screen.queryByTestId('push-connection-lost')).not.toBeInTheDocument();

    act(() => source.emitOpen());
    expect(document.body.dataset.pushConnected).toBe('true');

    act(() => source.emitError());
    expect(document.body.dataset.pushConnected).toBe('false');
    expect(screen.getByTestId('push-connection-lost')).toHaveTextContent('Connection lost');
  });

  it('does not open the push channel for a signed-out visitor', async () => {
    stubBackend({ user: null });
    renderApp('/signin');
    await screen.findByRole('heading', { name: 'Sign in' });
    expect(FakeEventSource.instances).toHaveLength(0);
  });
});
