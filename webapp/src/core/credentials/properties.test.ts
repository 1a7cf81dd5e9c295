import { describe, expect, it } from 'vitest';
import { dataToSave, isTestable, missingRequired, oauthKind, parentTypes, resolveProperties, shownProperties } from './properties';
import { HTTP_BASIC_AUTH } from './testTypes';
import { BLANK_SECRET, type CredentialType } from './types';

const oAuth2Api: CredentialType = {
  name: 'oAuth2Api',
  displayName: 'OAuth2 API',
  properties: [
    {
      name: 'grantType',
      displayName: 'Grant Type',
      type: 'options',
      default: 'authorizationCode',
      options: [
        { name: 'Authorization Code', value: 'authorizationCode' },
        { name: 'Client Credentials', value: 'clientCredentials' },
        { name: 'PKCE', value: 'pkce' },
      ],
    },
    { name: 'authUrl', displayName: 'Authorization URL', type: 'string', default: '', required: true, displayOptions: { show: { grantType: ['authorizationCode', 'pkce'] } } },
    { name: 'accessTokenUrl', displayName: 'Access Token URL', type: 'string', default: '', required: true },
    { name: 'clientSecret', displayName: 'Client Secret', type: 'string', default: '', typeOptions: { password: true }, required: true },
  ],
};
const googleOAuth2Api: CredentialType = {
  name: 'googleOAuth2Api',
  displayName: 'Google OAuth2 API',
  extends: ['oAuth2Api'],
  properties: [
    { name: 'grantType', displayName: 'Grant Type', type: 'hidden', default: 'authorizationCode' },
    { name: 'scope', displayName: 'Scope', type: 'string', default: '' },
  ],
};
const sheetsOAuth2Api: CredentialType = { name: 'sheetsOAuth2Api', displayName: 'Sheets OAuth2 API', extends: ['googleOAuth2Api'], properties: [] };
const oAuth1Api: CredentialType = { name: 'oAuth1Api', displayName: 'OAuth1 API', properties: [] };
const httpBasicAuth = HTTP_BASIC_AUTH;
const githubApi: CredentialType = {
  name: 'githubApi',
  displayName: 'GitHub API',
  test: { request: { baseURL: 'https://api.github.com', url: '/user' } },
  properties: [
    { name: 'server', displayName: 'Server', type: 'string', default: 'https://api.github.com' },
    { name: 'accessToken', displayName: 'Access Token', type: 'string', default: '', required: true },
    { name: 'retries', displayName: 'Retries', type: 'number', default: '', required: true, displayOptions: { hide: { server: ['https://api.github.com'] } } },
  ],
};
const types = [oAuth2Api, googleOAuth2Api, sheetsOAuth2Api, oAuth1Api, httpBasicAuth, githubApi];

describe('extends resolution', () => {
  it('puts parent properties first and lets the child replace one in place', () => {
    const names = resolveProperties(googleOAuth2Api, types).map((property) => `${property.name}:${property.type}`);
    expect(names).toEqual(['grantType:hidden', 'authUrl:string', 'accessTokenUrl:string', 'clientSecret:string', 'scope:string']);
  });

  it('follows parents of parents, each once, and survives a cycle', () => {
    expect(parentTypes(sheetsOAuth2Api, types)).toEqual(['googleOAuth2Api', 'oAuth2Api']);
    const a: CredentialType = { name: 'a', displayName: 'A', extends: ['b'], properties: [{ name: 'x', displayName: 'X', type: 'string' }] };
    const b: CredentialType = { name: 'b', displayName: 'B', extends: ['a'], properties: [{ name: 'y', displayName: 'Y', type: 'string' }] };
    expect(resolveProperties(a, [a, b]).map((property) => property.name)).toEqual(['y', 'x']);
    expect(parentTypes(a, [a, b])).toEqual(['b']);
  });
});

describe('required fields with displayOptions', () => {
  it('reports only shown required fields that are empty', () => {
    const properties = resolveProperties(oAuth2Api, types);
    expect(missingRequired(properties, {})).toEqual(['authUrl', 'accessTokenUrl', 'clientSecret']);
    expect(missingRequired(properties, { grantType: 'clientCredentials' })).toEqual(['accessTokenUrl', 'clientSecret']);
    expect(missingRequired(properties, { grantType: 'clientCredentials', accessTokenUrl: 'http://x', clientSecret: BLANK_SECRET })).toEqual([]);
  });

  it('wants a number for a required number and hides fields by hide rules', () => {
    const properties = resolveProperties(githubApi, types);
    expect(missingRequired(properties, { accessToken: 't' })).toEqual([]);
    expect(missingRequired(properties, { accessToken: 't', server: 'https://ghe.local' })).toEqual(['retries']);
    expect(missingRequired(properties, { accessToken: 't', server: 'https://ghe.local', retries: 3 })).toEqual([]);
    expect(shownProperties(resolveProperties(googleOAuth2Api, types), {}).map((property) => property.name)).not.toContain('grantType');
  });
});

describe('OAuth and testability', () => {
  it('counts OAuth2 only for grants that connect an account, OAuth1 always, through parents', () => {
    expect(oauthKind(oAuth2Api, types, {})).toBe('oAuth2');
    expect(oauthKind(oAuth2Api, types, { grantType: 'pkce' })).toBe('oAuth2');
    expect(oauthKind(oAuth2Api, types, { grantType: 'clientCredentials' })).toBeNull();
    expect(oauthKind(sheetsOAuth2Api, types, {})).toBe('oAuth2');
    expect(oauthKind(oAuth1Api, types, {})).toBe('oAuth1');
    expect(oauthKind(httpBasicAuth, types, {})).toBeNull();
  });

  it('tests a type with a test when required fields are filled and nothing is an expression', () => {
    expect(isTestable(githubApi, types, { accessToken: 'abc' }, [])).toBe(true);
    expect(isTestable(githubApi, types, { accessToken: '' }, [])).toBe(false);
    expect(isTestable(githubApi, types, { accessToken: '={{$env.TOKEN}}' }, [])).toBe(false);
  });

  it('tests a type through a node only when that node is in the workflow', () => {
    expect(isTestable(httpBasicAuth, types, { user: 'u', password: 'p' }, [])).toBe(false);
    expect(isTestable(httpBasicAuth, types, { user: 'u', password: 'p' }, ['n8n-nodes-base.httpRequest'])).toBe(true);
  });

  it('never tests an OAuth credential that needs connecting', () => {
    const filled = { authUrl: 'http://a', accessTokenUrl: 'http://t', clientSecret: 's' };
    expect(isTestable({ ...oAuth2Api, test: {} }, types, filled, [])).toBe(false);
    expect(isTestable({ ...oAuth2Api, test: {} }, types, { ...filled, grantType: 'clientCredentials' }, [])).toBe(true);
  });
});

describe('data to save', () => {
  it('sends every property with its value or default, keeps the secret marker and leaves token data out', () => {
    const properties = resolveProperties(googleOAuth2Api, types);
    expect(dataToSave(properties, { clientSecret: BLANK_SECRET, scope: 'email', oauthTokenData: true, stale: 'x' })).toEqual({
      grantType: 'authorizationCode',
      authUrl: '',
      accessTokenUrl: '',
      clientSecret: BLANK_SECRET,
      scope: 'email',
    });
  });
});
