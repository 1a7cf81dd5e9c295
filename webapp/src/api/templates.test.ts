import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkTemplatesHealth, TEMPLATES_HEALTH_TIMEOUT_MS } from './templates';

describe('checkTemplatesHealth', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('calls <host>/health without REST headers and reports a success status as healthy', async () => {
    const fetchMock = vi.fn<typeof fetch>().mockResolvedValue(new Response('{"status":"OK"}', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(checkTemplatesHealth('https://templates.example/')).resolves.toBe(true);
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(String(url)).toBe('https://templates.example/health');
    expect((init?.headers as Record<string, string>).sessionid).toBeUndefined();
  });

  it('reports an error status as unhealthy', async () => {
    vi.stubGlobal('fetch', vi.fn<typeof fetch>().mockResolvedValue(new Response('nope', { status: 503 })));
    await expect(checkTemplatesHealth('https://templates.example')).resolves.toBe(false);
  });

  it('aborts after 2000 ms and reports unhealthy', async () => {
    vi.useFakeTimers();
    let signal: AbortSignal | undefined;
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>((_url, init) => {
        signal = init?.signal ?? undefined;
        return new Promise<Response>((_resolve, reject) => {
          signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        });
      }),
    );
    const result = checkTemplatesHealth('https://slow.example');
    await vi.advanceTimersByTimeAsync(TEMPLATES_HEALTH_TIMEOUT_MS - 1);
    expect(signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(signal?.aborted).toBe(true);
    await expect(result).resolves.toBe(false);
    expect(TEMPLATES_HEALTH_TIMEOUT_MS).toBe(2000);
  });
});
