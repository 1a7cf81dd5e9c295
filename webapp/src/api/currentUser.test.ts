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

  it('treats 401 as signed out', async () => {
    vi.stubGlobal('fetch', vi.fn<typeof fetch>().mockResolvedValue(new Response(JSON.stringify({ code: 401, message: 'Unauthorized' }), { status: 401 })));
    await expect(loginWithCookie()).resolves.toBeNull();
  });

  it('passes other failures on', async () => {
    vi.stubGlobal('fetch', vi.fn<typeof fetch>().mockResolvedValue(new Response(JSON.stringify({ code: 500, message: 'boom' }), { status: 500 })));
    await expect(loginWithCookie()).rejects.toBeInstanceOf(ResponseError);
  });
});
