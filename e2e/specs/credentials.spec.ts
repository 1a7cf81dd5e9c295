import { spawn } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { addAfter, node, openNewWorkflow, signIn, uniqueName } from '../support/editor';
import { SmtpCapture, linkIn } from '../support/smtpCapture';
import { startStack } from '../support/stack';

const ndv = (page: Page) => page.getByTestId('ndv');
const param = (page: Page, name: string) => ndv(page).getByTestId(`parameter-input-${name}`).last();
const dialog = (page: Page) => page.getByTestId('credential-edit-dialog');
const field = (page: Page, name: string) => dialog(page).locator(`[data-test-id="credential-field"][data-name="${name}"]`);
const banner = (page: Page) => dialog(page).getByTestId('credential-banner');
const toast = (page: Page, text: string | RegExp) => page.getByTestId('toast').filter({ hasText: text });

/** Screenshots of each modal at the sizes the product is used at, for review. */
async function shots(page: Page, name: string): Promise<void> {
  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 1280, height: 800 },
  ]) {
    await page.setViewportSize(viewport);
    await page.screenshot({ path: `test-results/credentials-${name}-${viewport.width}.png` });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

/** A local server that answers 200 only to Basic Auth alice:s3cret and records every Authorization header. */
async function basicAuthServer(): Promise<{ url: string; seen: string[]; close: () => Promise<void> }> {
  const seen: string[] = [];
  const expected = `Basic ${Buffer.from('alice:s3cret').toString('base64')}`;
  const server: Server = createServer((req, res) => {
    const header = (req.headers as IncomingHttpHeaders).authorization ?? '';
    seen.push(header);
    res.setHeader('Content-Type', 'application/json');
    if (header !== expected) {
      res.statusCode = 401;
      res.setHeader('WWW-Authenticate', 'Basic realm="test"');
      res.end(JSON.stringify({ error: 'unauthorized' }));
      return;
    }
    res.end(JSON.stringify({ ok: true }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}/private`, seen, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Starts bin/oauthprovider (a local OAuth2 authorization server) and reads its URL. */
async function oauthProvider(): Promise<{ url: string; stop: () => void }> {
  const bin = process.env.FLOWMILL_E2E_BIN ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin');
  const child = spawn(path.join(bin, 'oauthprovider'), ['-listen', '127.0.0.1:0', '-client-id', 'flowmill', '-client-secret', 'provider-secret'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`oauthprovider exited with code ${code}`)));
    createInterface({ input: child.stdout! }).once('line', (line) => resolve(line.trim()));
  });
  return { url, stop: () => child.kill('SIGTERM') };
}

async function pickOption(page: Page, parameter: string, label: string): Promise<void> {
  await param(page, parameter).locator('input:not([type="hidden"])').click();
  // Options with a description carry it in their accessible name.
  await page.getByRole('option', { name: new RegExp(`^${label}`) }).click();
}

/**
 * Adds an HTTP Request node calling `url` with a generic credential type, checks the node asks
 * for a credential, and opens the new-credential modal from its credential select.
 */
async function createFromHttpRequest(page: Page, url: string, typeLabel: string): Promise<void> {
  // The first page of a fresh stack on a loaded machine can take longer than the default wait.
  await page.goto('/workflow');
  await expect(node(page, 'Start')).toBeVisible({ timeout: 30_000 });
  await openNewWorkflow(page);
  await addAfter(page, 'Start', 'http', 'HTTP Request');
  await node(page, 'HTTP Request').locator('[class*="nodeCard"]').dblclick();
  await expect(ndv(page)).toBeVisible();
  await param(page, 'url').locator('input').fill(url);
  await pickOption(page, 'authentication', 'Generic Credential Type');
  await pickOption(page, 'genericAuthType', typeLabel);
  await expect(ndv(page).getByTestId('node-credentials').getByText(`Credentials for ${typeLabel} are not set.`)).toBeVisible();
  await ndv(page).getByTestId('node-credentials-select').click();
  await page.getByRole('option', { name: '- Create New -', exact: true }).click();
  await expect(dialog(page)).toBeVisible();
}

async function createCredentialByApi(request: APIRequestContext, name: string): Promise<string> {
  const res = await request.post('/rest/credentials', {
    data: { name, type: 'httpHeaderAuth', nodesAccess: [{ nodeType: 'n8n-nodes-base.httpRequest' }], data: { name: 'X-Token', value: 'secret' } },
  });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { data: { id: string } }).data.id;
}

test.describe('credentials on the shared stack', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page);
  });

  test('creates a Basic Auth credential from an HTTP Request node, tests it, and the run sends it', async ({ page }) => {
    test.setTimeout(120_000);
    const server = await basicAuthServer();
    try {
      await createFromHttpRequest(page, server.url, 'Basic Auth');
      const select = ndv(page).getByTestId('node-credentials-select');
      await expect(dialog(page).getByTestId('credential-name')).toContainText('Unnamed credential');
      // A required-less type saves at once; a wrong password fails the test against the server.
      await field(page, 'user').fill('alice');
      await field(page, 'password').fill('wrong');
      await shots(page, 'edit-new');
      await dialog(page).getByTestId('credential-save-button').click();
      await expect(banner(page)).toHaveAttribute('data-kind', 'error');
      await expect(banner(page)).toContainText("Couldn't connect with these settings");
      await shots(page, 'edit-error');
      await field(page, 'password').fill('s3cret');
      await dialog(page).getByTestId('credential-save-button').click();
      await expect(banner(page)).toHaveAttribute('data-kind', 'success');
      await expect(banner(page)).toHaveText('Connection tested successfully');
      await shots(page, 'edit-success');
      await dialog(page).getByTestId('credential-tab-details').click();
      await expect(dialog(page).getByTestId('credential-id')).not.toBeEmpty();
      await shots(page, 'edit-details');
      await dialog(page).getByTestId('credential-close-button').click();
      await expect(dialog(page)).toBeHidden();

      // The new credential is selected on the node and its issue is gone.
      await expect(select).toHaveValue(/Unnamed credential/);
      await expect(ndv(page).getByTestId('node-credentials').getByText('are not set')).toHaveCount(0);
      await ndv(page).getByTestId('back-to-canvas').click();
      await expect(ndv(page)).toBeHidden();

      const before = server.seen.length;
      await page.getByTestId('execute-workflow-button').click();
      await expect(toast(page, 'Workflow executed successfully')).toBeVisible();
      expect(server.seen.slice(before)).toContain(`Basic ${Buffer.from('alice:s3cret').toString('base64')}`);
    } finally {
      await server.close();
    }
  });

  test('connects an OAuth2 account through the popup and runs a request with its token', async ({ page }) => {
    test.setTimeout(120_000);
    const provider = await oauthProvider();
    try {
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
      await createFromHttpRequest(page, `${provider.url}/api/me`, 'OAuth2 API');

      // The redirect URL is copied for the provider's app settings.
      const redirect = dialog(page).getByTestId('credential-redirect-url');
      await expect(redirect).toHaveValue(/\/rest\/oauth2-credential\/callback$/);
      await dialog(page).getByTestId('credential-copy-redirect').click();
      await expect(toast(page, 'Copied to clipboard')).toBeVisible();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await redirect.inputValue());

      await field(page, 'authUrl').fill(`${provider.url}/authorize`);
      await field(page, 'accessTokenUrl').fill(`${provider.url}/token`);
      await field(page, 'clientId').fill('flowmill');
      await field(page, 'clientSecret').fill('provider-secret');
      await shots(page, 'edit-oauth');
      const popupOpened = page.waitForEvent('popup');
      await dialog(page).getByTestId('credential-connect').click();
      const popup = await popupOpened;
      await popup.getByRole('button', { name: 'Authorize' }).click();
      await expect(banner(page)).toHaveAttribute('data-kind', 'connected');
      await expect(banner(page)).toContainText('Account connected');
      await expect(dialog(page).getByTestId('credential-reconnect')).toBeVisible();
      await shots(page, 'edit-connected');
      await dialog(page).getByTestId('credential-close-button').click();
      await expect(dialog(page)).toBeHidden();
      await ndv(page).getByTestId('back-to-canvas').click();

      await page.getByTestId('execute-workflow-button').click();
      await expect(toast(page, 'Workflow executed successfully')).toBeVisible();
      const stats = (await (await fetch(`${provider.url}/stats`)).json()) as Record<string, number>;
      expect(stats.authorizationCode ?? 0).toBeGreaterThanOrEqual(1);
    } finally {
      provider.stop();
    }
  });

  test('lists, renames and deletes credentials from the sidebar', async ({ page }) => {
    const name = uniqueName('Header');
    await createCredentialByApi(page.request, name);
    await openNewWorkflow(page);
    await page.getByTestId('main-sidebar-credentials').click();
    await page.getByTestId('main-sidebar-credentials-open').click();
    const list = page.getByTestId('credentials-list-dialog');
    await expect(list).toBeVisible();
    const row = list.locator(`[data-test-id="credentials-list-row"][data-name="${name}"]`);
    await expect(row).toBeVisible();
    await expect(row).toContainText('Header Auth');
    await expect(row).toContainText(/just now|minute/);
    await shots(page, 'list');

    // Rows are sorted by name.
    const names = await list.getByTestId('credentials-list-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-name') ?? ''));
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, undefined, { sensitivity: 'base' })));

    // Rename in the edit modal; the secret is kept as a masked placeholder.
    await row.getByTestId('credentials-list-edit').click();
    await expect(dialog(page)).toBeVisible();
    await expect(field(page, 'value')).toHaveValue('');
    await expect(field(page, 'value')).toHaveAttribute('placeholder', /•/);
    await dialog(page).getByTestId('credential-name').click();
    await dialog(page).getByTestId('credential-name-input').fill('');
    await page.keyboard.press('Enter');
    await expect(dialog(page).getByTestId('credential-name')).toContainText('Untitled Credential');
    await expect(dialog(page).getByTestId('credential-name-warning')).toHaveText('Credential name cannot be empty');
    const renamed = `${name} renamed`;
    await dialog(page).getByTestId('credential-name').click();
    await dialog(page).getByTestId('credential-name-input').fill(renamed);
    await page.keyboard.press('Enter');
    // Closing with unsaved changes asks first.
    await dialog(page).getByTestId('credential-close-button').click();
    await expect(page.getByText('Close without saving?')).toBeVisible();
    await page.getByTestId('cancel-button').click();
    await dialog(page).getByTestId('credential-save-button').click();
    await expect(dialog(page).getByTestId('credential-save-button')).toHaveText('Saved');
    await dialog(page).getByTestId('credential-close-button').click();
    await expect(dialog(page)).toBeHidden();
    const renamedRow = list.locator(`[data-test-id="credentials-list-row"][data-name="${renamed}"]`);
    await expect(renamedRow).toBeVisible();

    // The secret survived the rename.
    const stored = await page.request.get('/rest/credentials');
    const entry = ((await stored.json()) as { data: Array<{ id: string; name: string }> }).data.find((c) => c.name === renamed);
    expect(entry).toBeDefined();

    await renamedRow.getByTestId('credentials-list-delete').click();
    await page.getByTestId('confirm-button').click();
    await expect(toast(page, 'Credential deleted')).toBeVisible();
    await expect(renamedRow).toHaveCount(0);

    // Add new opens the type chooser; Continue waits for a choice.
    await list.getByTestId('credentials-list-add').click();
    const chooser = page.getByTestId('select-credential-dialog');
    await expect(chooser).toBeVisible();
    await expect(chooser.getByTestId('select-credential-continue')).toBeDisabled();
    await chooser.getByTestId('credential-type-select').fill('oauth1');
    await page.getByRole('option', { name: 'OAuth1 API', exact: true }).click();
    await shots(page, 'select-type');
    await chooser.getByTestId('select-credential-continue').click();
    await expect(dialog(page)).toBeVisible();
    await expect(dialog(page).getByTestId('credential-redirect-url')).toHaveValue(/oauth1-credential\/callback/);
    // Save with the required fields empty: warning banner and field messages.
    await dialog(page).getByTestId('credential-save-button').click();
    await expect(banner(page)).toHaveText('Please check the errors below');
    await expect(dialog(page).getByText('This field is required').first()).toBeVisible();
    await shots(page, 'edit-validation');
    // An OAuth credential that is not connected asks before closing.
    await dialog(page).getByTestId('credential-close-button').click();
    await expect(page.getByText('Close without connecting?')).toBeVisible();
    await page.getByTestId('confirm-button').click();
    await expect(dialog(page)).toBeHidden();
  });
});

// Members need an owner set up, which changes the whole instance: this runs on a stack of its own.
test('a member does not see the owner\'s credentials', async ({ browser }) => {
  test.setTimeout(180_000);
  const smtp = await SmtpCapture.start();
  const stack = await startStack(smtp.env());
  try {
    const owner = await (await browser.newContext({ baseURL: stack.url })).newPage();
    expect((await owner.request.get('/rest/login')).status()).toBe(200);
    const setup = await owner.request.post('/rest/owner', { data: { email: 'owner@example.com', firstName: 'Olga', lastName: 'Owner', password: 'Owner-Pass1' } });
    expect(setup.status(), await setup.text()).toBe(200);
    await owner.request.post('/rest/me/survey', { data: { version: 'v2' } });
    const ownerCredential = uniqueName('Owner secret');
    const ownerId = await createCredentialByApi(owner.request, ownerCredential);

    const invited = await owner.request.post('/rest/users', { data: [{ email: 'member@example.com' }] });
    expect(invited.status(), await invited.text()).toBe(200);
    const link = new URL(linkIn(await smtp.waitFor('member@example.com', /invited/), '/signup'));
    const member = await (await browser.newContext({ baseURL: stack.url })).newPage();
    const signup = await member.request.post(`/rest/users/${link.searchParams.get('inviteeId')}`, {
      data: { inviterId: link.searchParams.get('inviterId'), token: link.searchParams.get('token'), firstName: 'Mia', lastName: 'Member', password: 'Member-Pass1' },
    });
    expect(signup.status(), await signup.text()).toBe(200);
    await member.request.post('/rest/me/survey', { data: { version: 'v2' } });
    const memberCredential = uniqueName('Member secret');
    await createCredentialByApi(member.request, memberCredential);

    // The member's list holds only their own credential; the owner's cannot be opened.
    await member.goto('/workflow');
    await member.getByTestId('main-sidebar-credentials').click();
    await member.getByTestId('main-sidebar-credentials-open').click();
    const memberList = member.getByTestId('credentials-list-dialog');
    await expect(memberList.getByTestId('credentials-list-row')).toHaveCount(1);
    await expect(memberList.getByTestId('credentials-list-row')).toHaveAttribute('data-name', memberCredential);
    expect((await member.request.get(`/rest/credentials/${ownerId}?includeData=true`)).status()).toBeGreaterThanOrEqual(400);

    // The owner sees every credential.
    await owner.goto('/workflow');
    await owner.getByTestId('main-sidebar-credentials').click();
    await owner.getByTestId('main-sidebar-credentials-open').click();
    const ownerList = owner.getByTestId('credentials-list-dialog');
    await expect(ownerList.locator(`[data-test-id="credentials-list-row"][data-name="${ownerCredential}"]`)).toBeVisible();
    await expect(ownerList.locator(`[data-test-id="credentials-list-row"][data-name="${memberCredential}"]`)).toBeVisible();
  } finally {
    await stack.stop();
    await smtp.stop();
  }
});
