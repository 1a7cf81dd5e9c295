import { describe, expect, it } from 'vitest';
import { appName, documentationLink, normalizeName, suggestedName } from './names';

describe('credential names', () => {
  it('keeps at most 64 characters and turns an empty name into Untitled Credential', () => {
    expect(normalizeName('x'.repeat(70))).toEqual({ name: 'x'.repeat(64), emptied: false });
    expect(normalizeName('  ')).toEqual({ name: 'Untitled Credential', emptied: true });
    expect(normalizeName(' Mine ')).toEqual({ name: 'Mine', emptied: false });
  });

  it('suggests the app name plus account, except for the generic types', () => {
    expect(appName('GitHub API')).toBe('GitHub');
    expect(appName('Google OAuth2')).toBe('Google');
    expect(suggestedName({ name: 'githubApi', displayName: 'GitHub API', properties: [] })).toBe('GitHub account');
    expect(suggestedName({ name: 'httpBasicAuth', displayName: 'Basic Auth', properties: [] })).toBe('Unnamed credential');
    expect(suggestedName({ name: 'oAuth2Api', displayName: 'OAuth2 API', properties: [] })).toBe('Unnamed credential');
  });

  it('builds documentation links under the docs host unless absolute', () => {
    expect(documentationLink('https://example.com/doc')).toBe('https://example.com/doc');
    expect(documentationLink('github')).toBe('https://docs.n8n.io/integrations/builtin/credentials/github/');
    expect(documentationLink(undefined)).toBeUndefined();
  });
});
