/**
 * The string a production build carries wherever the base path belongs. The Go server replaces it
 * with the configured base path (always starting and ending with `/`) when it serves index.html
 * and text assets.
 */
export const BASE_PATH_PLACEHOLDER = '/{{BASE_PATH}}/';

/** Where the app lives: every URL the app builds derives from these. */
export interface AppPaths {
  /** Base path with leading and trailing slash, `/` at the root. */
  basePath: string;
  /** react-router basename: the base path without its trailing slash (`/` at the root). */
  routerBasename: string;
  /** Prefix of every REST call: `<basePath>rest`, for example `/rest` or `/flowmill/rest`. */
  restBase: string;
}

/**
 * Normalises the base path injected into index.html. Anything that is not a usable path (absent,
 * empty, or a placeholder the server did not replace, as in the Vite dev server) means `/`.
 */
export function resolveBasePath(raw: unknown): string {
  if (typeof raw !== 'string') return '/';
  const trimmed = raw.trim();
  if (trimmed === '' || trimmed.includes('{{')) return '/';
  const segments = trimmed.split('/').filter((segment) => segment !== '');
  return segments.length === 0 ? '/' : `/${segments.join('/')}/`;
}

/** Computes every app path from the injected base path value. */
export function resolveAppPaths(raw: unknown): AppPaths {
  const basePath = resolveBasePath(raw);
  return {
    basePath,
    routerBasename: basePath === '/' ? '/' : basePath.slice(0, -1),
    restBase: `${basePath}rest`,
  };
}

/** The app paths of this page, read from `window.BASE_PATH` set by index.html. */
export function currentAppPaths(): AppPaths {
  return resolveAppPaths((globalThis as { BASE_PATH?: unknown }).BASE_PATH);
}
