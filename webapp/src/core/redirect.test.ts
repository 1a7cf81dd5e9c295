import { describe, expect, it } from 'vitest';
import { isLocalRedirect } from './redirect';

describe('isLocalRedirect', () => {
  it.each(['/ok', '/', '/workflow/42', '/workflow/42?x=1#y', '/settings/personal', '/a/\\b'])('accepts local path %j', (value) => {
    expect(isLocalRedirect(value)).toBe(true);
  });

  it.each([
    ['protocol-relative host', '//evil.com'],
    ['protocol-relative host with path', '//evil.com/workflow'],
    ['backslash host', '/\\evil.com'],
    ['absolute http URL', 'http://x'],
    ['absolute https URL', 'https://evil.com/ok'],
    ['javascript URL', 'javascript:alert(1)'],
    ['relative path', 'workflow'],
    ['empty string', ''],
    ['tab smuggled between slashes', '/\t/evil.com'],
    ['newline smuggled between slashes', '/\n/evil.com'],
    ['triple slash', '///evil.com'],
  ])('rejects %s', (_label, value) => {
    expect(isLocalRedirect(value)).toBe(false);
  });

  it.each([null, undefined, 1, ['/ok']])('rejects non-string %j', (value) => {
    expect(isLocalRedirect(value)).toBe(false);
  });
});
