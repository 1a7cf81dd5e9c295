import { describe, expect, it } from 'vitest';
import { apiPlaygroundPath, isShortenedApiKey } from './apiKey';

describe('API key page', () => {
  it('links the playground under the base path', () => {
    expect(apiPlaygroundPath('/', 'api', 1)).toBe('/api/v1/docs');
    expect(apiPlaygroundPath('/flowmill/', '/api/', 2)).toBe('/flowmill/api/v2/docs');
    expect(apiPlaygroundPath('/flowmill', 'api', 1)).toBe('/flowmill/api/v1/docs');
  });

  it('tells a shortened key from a full one', () => {
    expect(isShortenedApiKey('flowmill_…ab12')).toBe(true);
    expect(isShortenedApiKey('flowmill_0123abcd')).toBe(false);
  });
});
