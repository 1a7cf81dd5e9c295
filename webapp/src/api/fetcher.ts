import { currentAppPaths } from '@/core/basePath';
import { currentLocale, i18n } from '@/i18n';
import { sessionId } from './sessionId';

export type HttpMethod = 'GET' | 'HEAD' | 'DELETE' | 'POST' | 'PUT' | 'PATCH';

/** Query parameters or JSON body of a call. */
export type RequestData = Record<string, unknown>;

export interface ResponseErrorDetails {
  httpStatus?: number;
  code?: number | string;
  hint?: string;
  serverStack?: string;
}

/**
 * A failed call: the server's message, code and hint from its `{code, message, hint}` body, and
 * the HTTP status. A call that never reached the server has no httpStatus.
 */
export class ResponseError extends Error {
  readonly httpStatus?: number;
  readonly code?: number | string;
  readonly hint?: string;
  readonly serverStack?: string;

  constructor(message: string, details: ResponseErrorDetails = {}) {
    super(message);
    this.name = 'ResponseError';
    this.httpStatus = details.httpStatus;
    this.code = details.code;
    this.hint = details.hint;
    this.serverStack = details.serverStack;
  }
}

const BODY_METHODS: ReadonlySet<HttpMethod> = new Set(['POST', 'PUT', 'PATCH']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function joinUrl(base: string, endpoint: string): string {
  return `${base.replace(/\/+$/, '')}/${endpoint.replace(/^\/+/, '')}`;
}

function toQuery(data: RequestData): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(data)) {
    if (value === undefined || value === null) continue;
    params.append(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  const query = params.toString();
  return query === '' ? '' : `?${query}`;
}

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

export interface RequestOptions {
  baseUrl: string;
  method: HttpMethod;
  endpoint: string;
  /** Sent as a JSON body for POST, PUT and PATCH and as query parameters otherwise. */
  data?: RequestData;
  headers?: Record<string, string>;
  credentials?: RequestCredentials;
  signal?: AbortSignal;
}

/**
 * Performs one HTTP call and returns the parsed JSON body (undefined when empty). Error bodies
 * become a ResponseError with the server's message; a call that cannot reach the server becomes
 * the spec's network error. Aborts are passed through unchanged.
 */
export async function request({ baseUrl, method, endpoint, data, headers, credentials, signal }: RequestOptions): Promise<unknown> {
  const sendsBody = BODY_METHODS.has(method);
  const url = joinUrl(baseUrl, endpoint) + (!sendsBody && data ? toQuery(data) : '');
  const init: RequestInit = {
    method,
    headers: { Accept: 'application/json', ...(sendsBody ? { 'Content-Type': 'application/json' } : {}), ...headers },
    credentials,
    signal,
  };
  if (sendsBody && data !== undefined) init.body = JSON.stringify(data);

  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    if (isAbort(error) || signal?.aborted) throw error;
    throw new ResponseError(i18n.t('api.networkError'));
  }

  const text = await response.text();
  let body: unknown;
  let parsed = true;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = false;
  }

  if (!response.ok) {
    if (parsed && isRecord(body) && typeof body.message === 'string') {
      throw new ResponseError(body.message, {
        httpStatus: response.status,
        code: typeof body.code === 'number' || typeof body.code === 'string' ? body.code : undefined,
        hint: typeof body.hint === 'string' ? body.hint : undefined,
        serverStack: typeof body.stack === 'string' ? body.stack : undefined,
      });
    }
    throw new ResponseError(i18n.t('api.requestFailed', { status: response.status }), { httpStatus: response.status });
  }
  if (!parsed) throw new ResponseError(i18n.t('api.unexpectedResponse'), { httpStatus: response.status });
  return body;
}

export interface RestClientConfig {
  /** `<basePath>rest` */
  restBase: string;
  sessionId: string;
  /** Read on every call so a locale change applies at once. */
  locale: () => string;
}

export interface RestClient {
  /** Calls `<restBase><endpoint>` and returns the body's `data` field. */
  request<T>(method: HttpMethod, endpoint: string, data?: RequestData, signal?: AbortSignal): Promise<T>;
  get<T>(endpoint: string, query?: RequestData, signal?: AbortSignal): Promise<T>;
}

/**
 * The client of the editor REST API (ARCHITECTURE.md §4): cookies included, `sessionid` and
 * Accept-Language headers on every call, success bodies unwrapped from `{"data": …}`.
 */
export function createRestClient(config: RestClientConfig): RestClient {
  async function call<T>(method: HttpMethod, endpoint: string, data?: RequestData, signal?: AbortSignal): Promise<T> {
    const body = await request({
      baseUrl: config.restBase,
      method,
      endpoint,
      data,
      signal,
      credentials: 'include',
      headers: { sessionid: config.sessionId, 'Accept-Language': config.locale() },
    });
    if (body === undefined) return undefined as T;
    if (!isRecord(body) || !('data' in body)) throw new ResponseError(i18n.t('api.unexpectedResponse'));
    return body.data as T;
  }
  return {
    request: call,
    get: (endpoint, query, signal) => call('GET', endpoint, query, signal),
  };
}

/** The app's REST client, rooted at this page's REST base. */
export const restApi: RestClient = createRestClient({
  restBase: currentAppPaths().restBase,
  sessionId,
  locale: currentLocale,
});
