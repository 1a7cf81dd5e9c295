import type { CredentialType } from './types';

/** n8n's Basic Auth credential type as the server lists it, for tests. */
export const HTTP_BASIC_AUTH: CredentialType = {
  name: 'httpBasicAuth',
  displayName: 'Basic Auth',
  testedBy: ['n8n-nodes-base.httpRequest'],
  properties: [
    { name: 'user', displayName: 'User', type: 'string', default: '' },
    { name: 'password', displayName: 'Password', type: 'string', default: '', typeOptions: { password: true } },
  ],
};
