/**
 * Says whether a `redirect` query value is a path on this site. Only a single `/` followed by a
 * character other than `/` or `\` (or nothing) qualifies: browsers read `//host` and `/\host` as
 * another host, and they drop tabs and newlines from URLs, so control characters are refused too.
 */
export function isLocalRedirect(value: unknown): value is string {
  if (typeof value !== 'string' || !value.startsWith('/')) return false;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(value)) return false;
  const second = value.charAt(1);
  return second !== '/' && second !== '\\';
}
