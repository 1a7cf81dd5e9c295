import { afterEach, describe, expect, it, vi } from 'vitest';
import { loginWithCookie } from './currentUser';
import { ResponseError } from './fetcher';

describe('loginWithCookie', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('returns the user from GET <rest>/login', async () => {
    const fetchMock = vi.fn<typeof fetch>().mockResolvedValue(
      new Response(JSON.stringify({ data: { id: '1', email: 'a@example.com', globalRole: { name: 'owner' } } }), { status: 200 }),
    );
    vi.stubGlobal('fetch', fetchMock);
    await expect(loginWithCookie()).resolves.toMatchObject({ id: '1', globalRole: { name: 'owner' } });
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/rest/login');
  });

  it('sends the setup link\'s token once and takes it out of the address bar', async () => {
    window.history.replaceState(null, '', '/setup?setupToken=abc123&x=1#top');
    const fetchMock = vi.fn<typeof fetch>().mockImplementation(() =>
      Promise.resolve(new Response(JSON.stringify({ data: { id: '1', globalRole: { name: 'owner' } } }), { status: 200 })),
    );
    vi.stubGlobal('fetch', fetchMock);
    await loginWithCookie();
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/rest/login?setupToken=abc123');
    expect(window.location.pathname + window.location.search + window.location.hash).toBe('/setup?x=1#top');
    await loginWithCookie();
    expect(String(fetchMock.mock.calls[1]?.[0])).toBe('/rest/login');
    window.history.replaceState(null, '', '/');
  });

  it('treats 401 as signed out', async () => {
    vi.stubGlobal('fetch', vi.fn<typeof fetch>().mockResolvedValue(new Response(JSON.stringify({ code: 401, message: 'Unauthorized' }), { status: 401 })));
    await expect(loginWithCookie()).resolves.toBeNull();
  });

  it('passes other failures on', async () => {
    vi.stubGlobal('fetch', vi.fn<typeof fetch>().mockResolvedValue(new Response(JSON.stringify({ code: 500, message: 'boom' }), { status: 500 })));
    await expect(loginWithCookie()).rejects.toBeInstanceOf(ResponseError);
  });
});
