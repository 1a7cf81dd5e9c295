import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRestClient, ResponseError, type RestClient } from './fetcher';

function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

describe('REST client', () => {
  let fetchMock: ReturnType<typeof vi.fn<typeof fetch>>;
  let client: RestClient;

  beforeEach(() => {
    fetchMock = vi.fn<typeof fetch>();
    vi.stubGlobal('fetch', fetchMock);
    client = createRestClient({ restBase: '/flowmill/rest', sessionId: 'session-123', locale: () => 'de' });
  });

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  function lastCall(): { url: string; init: RequestInit; headers: Record<string, string> } {
    const [url, init] = fetchMock.mock.calls.at(-1) ?? [];
    return { url: String(url), init: init ?? {}, headers: (init?.headers ?? {}) as Record<string, string> };
  }

  it('unwraps the data field of a success body', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ data: { versionCli: '1.2.3' } }));
    await expect(client.get('/settings')).resolves.toEqual({ versionCli: '1.2.3' });
  });

  it('keeps falsy data values', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ data: false }));
    await expect(client.request('POST', '/executions/1/retry')).resolves.toBe(false);
  });

  it('calls the REST base with session id, locale, JSON accept and cookies', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ data: null }));
    await client.get('/login');
    const { url, init, headers } = lastCall();
    expect(url).toBe('/flowmill/rest/login');
    expect(init.method).toBe('GET');
    expect(init.credentials).toBe('include');
    expect(headers.sessionid).toBe('session-123');
    expect(headers['Accept-Language']).toBe('de');
    expect(headers.Accept).toBe('application/json');
    expect(init.body).toBeUndefined();
  });

  it('sends GET data as query parameters, JSON-encoding objects and skipping empty values', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ data: [] }));
    await client.get('/executions', { limit: 10, filter: { workflowId: '5' }, firstId: undefined, lastId: null, search: 'a b' });
    const url = new URL(lastCall().url, 'http://localhost');
    expect(url.pathname).toBe('/flowmill/rest/executions');
    expect(Object.fromEntries(url.searchParams)).toEqual({ limit: '10', filter: '{"workflowId":"5"}', search: 'a b' });
  });

  it.each(['POST', 'PUT', 'PATCH'] as const)('sends %s data as a JSON body', async (method) => {
    fetchMock.mockResolvedValue(jsonResponse({ data: { id: '1' } }));
    await client.request(method, '/me', { firstName: 'Ada' });
    const { url, init, headers } = lastCall();
    expect(url).toBe('/flowmill/rest/me');
    expect(init.method).toBe(method);
    expect(init.body).toBe('{"firstName":"Ada"}');
    expect(headers['Content-Type']).toBe('application/json');
  });

  it('sends DELETE data as query parameters', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ data: true }));
    await client.request('DELETE', '/users/9', { transferId: '3' });
    const { url, init } = lastCall();
    expect(url).toBe('/flowmill/rest/users/9?transferId=3');
    expect(init.body).toBeUndefined();
  });

  it('returns undefined for an empty success body', async () => {
    fetchMock.mockResolvedValue(new Response(null, { status: 204 }));
    await expect(client.request('DELETE', '/me/api-key')).resolves.toBeUndefined();
  });

  it('turns an error body into a ResponseError with message, code, hint and status', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ code: 404, message: 'Workflow with ID 7 could not be found', hint: 'Check the id' }, 404));
    const error = await client.get('/workflows/7').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseError);
    expect(error).toMatchObject({ message: 'Workflow with ID 7 could not be found', code: 404, hint: 'Check the id', httpStatus: 404 });
  });

  it('keeps string error codes', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ code: 'invalid_workflow', message: 'Bad node' }, 422));
    await expect(client.request('POST', '/workflows', {})).rejects.toMatchObject({ code: 'invalid_workflow', httpStatus: 422, message: 'Bad node' });
  });

  it('reports the status when an error body carries no message', async () => {
    fetchMock.mockResolvedValue(new Response('<html>Bad gateway</html>', { status: 502 }));
    await expect(client.get('/settings')).rejects.toMatchObject({ name: 'ResponseError', message: 'Request failed with status code 502', httpStatus: 502 });
  });

  it('maps a network failure to the spec message without a status', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    const error = await client.get('/settings').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseError);
    expect((error as ResponseError).message).toBe('API-Server can not be reached. It is probably down.');
    expect((error as ResponseError).httpStatus).toBeUndefined();
  });

  it('passes an abort through unchanged', async () => {
    const abort = new DOMException('The operation was aborted.', 'AbortError');
    fetchMock.mockRejectedValue(abort);
    await expect(client.get('/settings')).rejects.toBe(abort);
  });

  it('refuses a success body that is not wrapped in data', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ versionCli: '1.0.0' }));
    await expect(client.get('/settings')).rejects.toBeInstanceOf(ResponseError);
  });

  it('refuses a success body that is not JSON', async () => {
    fetchMock.mockResolvedValue(new Response('<!doctype html>', { status: 200 }));
    await expect(client.get('/settings')).rejects.toMatchObject({ httpStatus: 200 });
  });
});
