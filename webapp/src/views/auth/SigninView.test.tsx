import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS } from '@/core/settings';
import type { User } from '@/core/user';
import { currentUrl, renderApp, setUpAppTests } from '@/test/renderApp';

const OWNER: User = { id: '1', firstName: 'Olga', lastName: 'Owner', email: 'olga@example.com', globalRole: { name: 'owner' }, isPending: false };

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function stubBackend(login: (body: { email: string; password: string }) => Response) {
  const fetchMock = vi.fn<typeof fetch>(async (input, init) => {
    const url = String(input);
    if (url === '/rest/settings') return json({ data: { ...DEFAULT_SETTINGS, userManagement: { enabled: true, showSetupOnFirstLoad: false, smtpSetup: true } } });
    if (url === '/rest/login' && init?.method === 'POST') return login(JSON.parse(String(init.body)) as { email: string; password: string });
    if (url === '/rest/login') return json({ code: 401, message: 'Unauthorized' }, 401);
    return json({ data: [] });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const field = (name: string) => document.querySelector<HTMLInputElement>(`input[name="${name}"]`) as HTMLInputElement;

describe('sign-in', () => {
  setUpAppTests();

  it('marks no field as required and checks the fields only when signing in', async () => {
    stubBackend(() => json({ data: OWNER }));
    renderApp('/signin');
    await screen.findByRole('heading', { name: 'Sign in' });
    expect(document.querySelector('.mantine-InputWrapper-required')).toBeNull();
    fireEvent.blur(field('email'));
    fireEvent.blur(field('password'));
    expect(screen.queryByText('This field is required')).not.toBeInTheDocument();
    fireEvent.click(screen.getByTestId('signin-button'));
    expect(await screen.findAllByText('This field is required')).toHaveLength(2);
  });

  it('signs in and follows a local redirect', async () => {
    const fetchMock = stubBackend(() => json({ data: OWNER }));
    const { router } = renderApp('/signin?redirect=%2Fsettings%2Fapi');
    await screen.findByRole('heading', { name: 'Sign in' });
    fireEvent.change(field('email'), { target: { value: 'olga@example.com' } });
    fireEvent.change(field('password'), { target: { value: 'Secret-Pass1' } });
    fireEvent.click(screen.getByTestId('signin-button'));
    await waitFor(() => expect(currentUrl(router)).toBe('/settings/api'));
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({ email: 'olga@example.com', password: 'Secret-Pass1' });
  });

  it('ignores a redirect to another site', async () => {
    stubBackend(() => json({ data: OWNER }));
    const { router } = renderApp('/signin?redirect=%2F%5Cevil.example.com');
    await screen.findByRole('heading', { name: 'Sign in' });
    fireEvent.change(field('email'), { target: { value: 'olga@example.com' } });
    fireEvent.change(field('password'), { target: { value: 'Secret-Pass1' } });
    fireEvent.click(screen.getByTestId('signin-button'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/workflow'));
  });

  it('shows the server message when signing in fails', async () => {
    stubBackend(() => json({ code: 401, message: 'Wrong username or password. Do you have caps lock on?' }, 401));
    renderApp('/signin');
    await screen.findByRole('heading', { name: 'Sign in' });
    fireEvent.change(field('email'), { target: { value: 'olga@example.com' } });
    fireEvent.change(field('password'), { target: { value: 'nope' } });
    fireEvent.click(screen.getByTestId('signin-button'));
    const toast = await screen.findByTestId('toast');
    expect(toast).toHaveTextContent('Problem logging in');
    expect(toast).toHaveTextContent('Wrong username or password');
  });
});
