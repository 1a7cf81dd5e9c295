/**
 * Where the API playground (Swagger UI) of the public API lives: the public API path and
 * `/v<latest>/docs` under the base path.
 */
export function apiPlaygroundPath(basePath: string, publicApiPath: string, latestVersion: number): string {
  const base = basePath.endsWith('/') ? basePath : `${basePath}/`;
  const path = publicApiPath.replace(/^\/+|\/+$/g, '');
  return `${base}${path === '' ? '' : `${path}/`}v${latestVersion}/docs`;
}

/**
 * The server shows a key in full only in the answer that created it; afterwards it answers a
 * shortened form with an ellipsis, which cannot be used and so is not offered for copying.
 */
export function isShortenedApiKey(apiKey: string): boolean {
  return apiKey.includes('…');
}
