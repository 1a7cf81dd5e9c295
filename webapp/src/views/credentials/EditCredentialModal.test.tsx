import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BLANK_SECRET, type CredentialType } from '@/core/credentials';
import { HTTP_BASIC_AUTH } from '@/core/credentials/testTypes';
import { renderWithProviders } from '@/test/renderApp';
import { EditCredentialModal } from './EditCredentialModal';

interface Call {
  method: string;
  path: string;
  body: Record<string, unknown> | undefined;
}

const TYPES: CredentialType[] = [
  HTTP_BASIC_AUTH,
  {
    name: 'oAuth2Api',
    displayName: 'OAuth2 API',
    properties: [
      { name: 'grantType', displayName: 'Grant Type', type: 'options', default: 'authorizationCode', options: [{ name: 'Authorization Code', value: 'authorizationCode' }] },
      { name: 'authUrl', displayName: 'Authorization URL', type: 'string', default: '', required: true },
    ],
  },
];

const STORED = {
  id: '7',
  name: 'Team login',
  type: 'httpBasicAuth',
  data: { user: 'alice', password: BLANK_SECRET },
  nodesAccess: [{ nodeType: 'n8n-nodes-base.httpRequest' }],
  createdAt: '2026-11-01T10:00:00Z',
  updatedAt: '2026-11-02T10:00:00Z',
};

let calls: Call[] = [];
let testAnswers: Array<{ status: 'OK' | 'Error'; message: string }> = [];

function answer(method: string, path: string, body: Record<string, unknown> | undefined): unknown {
  if (path === '/rest/credential-types') return TYPES;
  if (path === '/rest/node-types') return [{ name: 'n8n-nodes-base.httpRequest', displayName: 'HTTP Request', group: [], version: 2, defaults: { name: 'HTTP Request' }, credentials: [{ name: 'httpBasicAuth' }] }];
  if (path === '/rest/credentials/new') return { name: 'Unnamed credential 2' };
  if (path === '/rest/credentials' && method === 'GET') return [];
  if (path === '/rest/credentials' && method === 'POST') return { ...STORED, id: '9', name: body?.name, data: undefined };
  if (path === '/rest/credentials/7' && method === 'GET') return STORED;
  if (path === '/rest/credentials/7' && method === 'PATCH') return { ...STORED, name: body?.name, data: undefined };
  if (path === '/rest/credentials/test') return testAnswers.shift();
  if (path === '/rest/settings') return {};
  throw new Error(`unexpected call ${method} ${path}`);
}

const posted = (path: string) => calls.filter((call) => call.path === path && call.method !== 'GET');

describe('credential edit modal', { timeout: 20_000 }, () => {
  beforeEach(() => {
    calls = [];
    testAnswers = [];
    Element.prototype.scrollIntoView = vi.fn();
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(async (input, init) => {
        const url = new URL(String(input), 'http://localhost');
        const method = init?.method ?? 'GET';
        const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : undefined;
        calls.push({ method, path: url.pathname, body });
        return new Response(JSON.stringify({ data: answer(method, url.pathname, body) }), { status: 200, headers: { 'Content-Type': 'application/json' } });
      }),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  it('creates, then tests through the HTTP Request node it was opened from, shows the error with Retry and then success', async () => {
    const onSaved = vi.fn();
    testAnswers = [
      { status: 'Error', message: 'Authorization failed - please check your credentials' },
      { status: 'OK', message: 'Connection successful!' },
    ];
    renderWithProviders(<EditCredentialModal mode="new" activeId="httpBasicAuth" tester={{ nodeType: 'n8n-nodes-base.httpRequest', url: 'http://127.0.0.1:9/x', method: 'GET' }} onSaved={onSaved} />);
    await waitFor(() => expect(screen.getByTestId('credential-name')).toHaveTextContent('Unnamed credential 2'));
    fireEvent.change(await screen.findByLabelText('User'), { target: { value: 'alice' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'pw' } });
    fireEvent.click(screen.getByTestId('credential-save-button'));

    await waitFor(() => expect(screen.getByTestId('credential-banner')).toHaveAttribute('data-kind', 'error'));
    expect(screen.getByTestId('credential-banner')).toHaveTextContent("Couldn't connect with these settings");
    expect(screen.getByTestId('credential-banner-details')).toHaveTextContent('Authorization failed');
    const [created] = posted('/rest/credentials');
    expect(created?.body).toEqual({ name: 'Unnamed credential 2', type: 'httpBasicAuth', nodesAccess: [{ nodeType: 'n8n-nodes-base.httpRequest' }], data: { user: 'alice', password: 'pw' } });
    expect(onSaved).toHaveBeenCalledWith({ id: '9', name: 'Unnamed credential 2', type: 'httpBasicAuth' });
    expect(posted('/rest/credentials/test')[0]?.body).toEqual({
      credentials: { id: '9', name: 'Unnamed credential 2', type: 'httpBasicAuth', data: { user: 'alice', password: 'pw' } },
      nodeToTestWith: 'n8n-nodes-base.httpRequest',
      testRequest: { url: 'http://127.0.0.1:9/x', method: 'GET' },
    });

    fireEvent.click(screen.getByTestId('credential-retry'));
    await waitFor(() => expect(screen.getByTestId('credential-banner')).toHaveTextContent('Connection tested successfully'));
  });

  it('shows a stored secret masked and sends the marker back unchanged; a credential without a tester is not tested', async () => {
    renderWithProviders(<EditCredentialModal mode="edit" activeId="7" />);
    const password = await screen.findByLabelText('Password');
    expect(password).toHaveValue('');
    expect(password.getAttribute('placeholder')).toMatch(/•/);
    fireEvent.change(screen.getByLabelText('User'), { target: { value: 'bob' } });
    fireEvent.click(screen.getByTestId('credential-save-button'));
    await waitFor(() => expect(posted('/rest/credentials/7')).toHaveLength(1));
    expect(posted('/rest/credentials/7')[0]?.body).toMatchObject({ name: 'Team login', data: { user: 'bob', password: BLANK_SECRET } });
    await waitFor(() => expect(screen.getByTestId('credential-save-button')).toHaveTextContent('Saved'));
    expect(posted('/rest/credentials/test')).toHaveLength(0);
  });

  it('keeps the name rule and refuses to save with a required field empty', async () => {
    renderWithProviders(<EditCredentialModal mode="new" activeId="oAuth2Api" />);
    fireEvent.click(await screen.findByTestId('credential-name'));
    fireEvent.change(screen.getByTestId('credential-name-input'), { target: { value: '   ' } });
    fireEvent.keyDown(screen.getByTestId('credential-name-input'), { key: 'Enter' });
    expect(screen.getByTestId('credential-name')).toHaveTextContent('Untitled Credential');
    expect(screen.getByTestId('credential-name-warning')).toHaveTextContent('Credential name cannot be empty');

    await screen.findByLabelText(/Authorization URL/);
    fireEvent.click(screen.getByTestId('credential-save-button'));
    await waitFor(() => expect(screen.getByTestId('credential-banner')).toHaveTextContent('Please check the errors below'));
    expect(screen.getByText('This field is required')).toBeInTheDocument();
    expect(posted('/rest/credentials')).toHaveLength(0);
  });
});
