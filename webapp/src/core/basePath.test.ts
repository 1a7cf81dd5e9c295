import { afterEach, describe, expect, it } from 'vitest';
import { BASE_PATH_PLACEHOLDER, currentAppPaths, resolveAppPaths, resolveBasePath } from './basePath';

describe('resolveBasePath', () => {
  it.each([
    [BASE_PATH_PLACEHOLDER, '/'],
    ['/{{BASE_PATH}}/', '/'],
    ['{{BASE_PATH}}', '/'],
    [undefined, '/'],
    [null, '/'],
    [42, '/'],
    ['', '/'],
    ['   ', '/'],
    ['/', '/'],
    ['//', '/'],
    ['/flowmill/', '/flowmill/'],
    ['/flowmill', '/flowmill/'],
    ['flowmill', '/flowmill/'],
    ['/a/b/', '/a/b/'],
    ['/a//b', '/a/b/'],
  ])('%j resolves to %j', (raw, expected) => {
    expect(resolveBasePath(raw)).toBe(expected);
  });
});

describe('resolveAppPaths', () => {
  it('serves from the root when the placeholder was not replaced (dev server)', () => {
    expect(resolveAppPaths('/{{BASE_PATH}}/')).toEqual({ basePath: '/', routerBasename: '/', restBase: '/rest' });
  });

  it('prefixes router and REST base with a configured base path', () => {
    expect(resolveAppPaths('/flowmill/')).toEqual({
      basePath: '/flowmill/',
      routerBasename: '/flowmill',
      restBase: '/flowmill/rest',
    });
  });

  it('handles nested base paths', () => {
    expect(resolveAppPaths('/tools/flowmill/')).toEqual({
      basePath: '/tools/flowmill/',
      routerBasename: '/tools/flowmill',
      restBase: '/tools/flowmill/rest',
    });
  });
});

describe('currentAppPaths', () => {
  afterEach(() => {
    delete window.BASE_PATH;
  });

  it('reads window.BASE_PATH', () => {
    window.BASE_PATH = '/editor/';
    expect(currentAppPaths().restBase).toBe('/editor/rest');
  });

  it('falls back to the root without window.BASE_PATH', () => {
    delete window.BASE_PATH;
    expect(currentAppPaths().restBase).toBe('/rest');
  });
});
