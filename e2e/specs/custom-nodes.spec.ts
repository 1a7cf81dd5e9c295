import { spawn, type ChildProcess } from 'node:child_process';
import { cp, mkdir, mkdtemp, open, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { node, workflowIdOf } from '../support/editor';

// A custom node dropped into FLOWMILL_CUSTOM_EXTENSIONS appears in the editor and runs after a
// restart. The spec runs bin/api of its own in the embedded default (SQLite in a temporary data
// folder, the in-process Redis, worker and scheduler inside the api) on a free port, first with an
// empty extensions folder, then — stopped, the Bookshelf example package copied in, started again
// on the same data — with the node, whose credential points at a local HTTP server; the saved
// workflow then runs once more after a third start.
//
// Egress: workflow runs may reach loopback by default, but the credential test uses the strict
// profile (no loopback), so the api gets FLOWMILL_EGRESS_ALLOW=127.0.0.1/32 as bin/stack gives
// the shared stack's processes; nothing else is allowed.
test.describe.configure({ mode: 'serial', timeout: 120_000 });

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const bin = process.env.FLOWMILL_E2E_BIN ?? path.join(root, 'bin');
const EXAMPLE = path.join(root, 'examples', 'custom-nodes', 'n8n-nodes-bookshelf');
const OWNER = { email: 'owner@example.com', firstName: 'Olga', lastName: 'Owner', password: 'Owner-Pass1' };
const API_KEY = 'shelf-key-7f3a';
// Two pages: the first names the cursor of the second (the package's cursor pagination).
const BOOKS = [
  { id: 'b1', title: 'The Left Hand of Darkness', author: 'Ursula K. Le Guin', year: 1969 },
  { id: 'b2', title: 'Kindred', author: 'Octavia E. Butler', year: 1979 },
];
const MORE_BOOKS = [{ id: 'b3', title: 'Solaris', author: 'Stanislaw Lem', year: 1961 }];

const ndv = (page: Page) => page.getByTestId('ndv');
const output = (page: Page) => ndv(page).getByTestId('output-panel');
const dialog = (page: Page) => page.getByTestId('credential-edit-dialog');
const field = (page: Page, name: string) => dialog(page).locator(`[data-test-id="credential-field"][data-name="${name}"]`);
const creatorItem = (page: Page, name: string) => page.getByTestId('node-creator').getByTestId('node-creator-item-name').filter({ hasText: new RegExp(`^${name}$`) });
const creatorCategory = (page: Page, name: string) => page.getByTestId('node-creator').getByTestId('node-creator-category').filter({ hasText: name });

async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Api {
  url: string;
  stop: () => Promise<void>;
}

/** Starts bin/api on the data folder and waits for its readiness check; its output goes to log. */
async function startApi(dataDir: string, extensions: string, port: number, log: string): Promise<Api> {
  const url = `http://127.0.0.1:${port}/`;
  const out = await open(log, 'a');
  const env: NodeJS.ProcessEnv = { ...process.env };
  // The embedded default: no database or Redis URL from the environment this runs in.
  delete env.FLOWMILL_DATABASE_URL;
  delete env.FLOWMILL_REDIS_URL;
  const child: ChildProcess = spawn(path.join(bin, 'api'), [], {
    env: {
      ...env,
      FLOWMILL_DATA_DIR: dataDir,
      FLOWMILL_CUSTOM_EXTENSIONS: extensions,
      FLOWMILL_PORT: String(port),
      FLOWMILL_PUBLIC_URL: url,
      FLOWMILL_EGRESS_ALLOW: '127.0.0.1/32',
    },
    stdio: ['ignore', out.fd, out.fd],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  void exited.finally(() => out.close());
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`bin/api exited with code ${child.exitCode} (log: ${log})`);
    try {
      if ((await fetch(`${url}healthz/readiness`)).status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`bin/api did not become ready within 60 s (log: ${log})`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const code = await exited;
      expect(code, `bin/api stopped cleanly (log: ${log})`).toBe(0);
    },
  };
}

interface SeenRequest {
  method: string;
  url: string;
  apiKey: string | undefined;
}

/** The Bookshelf API: /me and /books answer only with the right X-API-Key; every request is recorded. */
async function bookshelfServer(): Promise<{ url: string; seen: SeenRequest[]; close: () => Promise<void> }> {
  const seen: SeenRequest[] = [];
  const server: Server = createServer((req, res) => {
    const apiKey = req.headers['x-api-key'] as string | undefined;
    seen.push({ method: req.method ?? '', url: req.url ?? '', apiKey });
    res.setHeader('Content-Type', 'application/json');
    const { pathname } = new URL(req.url ?? '/', 'http://localhost');
    if (apiKey !== API_KEY) {
      res.statusCode = 401;
      res.end(JSON.stringify({ error: 'bad api key' }));
    } else if (req.method === 'GET' && pathname === '/me') {
      res.end(JSON.stringify({ name: 'Library' }));
    } else if (req.method === 'GET' && pathname === '/books') {
      const second = new URL(req.url ?? '/', 'http://localhost').searchParams.get('cursor') === 'page-2';
      res.end(JSON.stringify(second ? { data: MORE_BOOKS, nextCursor: null } : { data: BOOKS, nextCursor: 'page-2' }));
    } else {
      res.statusCode = 404;
      res.end(JSON.stringify({ error: 'not found' }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

let work: string;
let dataDir: string;
let extensions: string;
let log: string;
let port: number;
let api: Api | undefined;
let shelf: Awaited<ReturnType<typeof bookshelfServer>>;
let workflowId = '';

test.beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'flowmill-custom-e2e-'));
  dataDir = path.join(work, 'data');
  extensions = path.join(work, 'custom-nodes');
  log = path.join(work, 'api.log');
  await mkdir(extensions);
  port = await freePort();
  shelf = await bookshelfServer();
});

test.afterEach(async ({}, testInfo) => {
  if (testInfo.status !== testInfo.expectedStatus) await testInfo.attach('api.log', { path: log, contentType: 'text/plain' });
});

test.afterAll(async () => {
  await api?.stop();
  await shelf?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

test('without custom packages the node creator has no Custom Nodes', async ({ page }) => {
  api = await startApi(dataDir, extensions, port, log);
  // Owner setup on the fresh instance, as the setup page sends it.
  expect((await page.request.get(`${api.url}rest/login`)).status()).toBe(200);
  const setup = await page.request.post(`${api.url}rest/owner`, { data: OWNER });
  expect(setup.status(), await setup.text()).toBe(200);
  expect((await page.request.post(`${api.url}rest/me/survey`, { data: { version: 'v2' } })).status()).toBe(200);

  await page.goto(`${api.url}workflow`);
  await expect(node(page, 'Start')).toBeVisible({ timeout: 30_000 });
  await node(page, 'Start').getByTestId('canvas-plus-button').click();
  await expect(page.getByTestId('node-creator')).toBeVisible();
  await expect(creatorCategory(page, 'Core Nodes')).toBeVisible();
  await expect(creatorCategory(page, 'Custom Nodes')).toHaveCount(0);
  await page.getByTestId('node-creator-search-bar').fill('bookshelf');
  await expect(page.getByTestId('node-creator-no-results')).toBeVisible();
  await expect(creatorItem(page, 'Bookshelf')).toHaveCount(0);
  await page.screenshot({ path: '/tmp/custom-nodes-creator-empty.png' });

  await api.stop();
  api = undefined;
});

test('after copying the Bookshelf package in and restarting, the node is listed, gets a credential and runs', async ({ page }) => {
  await cp(EXAMPLE, path.join(extensions, 'n8n-nodes-bookshelf'), { recursive: true });
  api = await startApi(dataDir, extensions, port, log);
  // The owner account made before the restart signs in.
  const login = await page.request.post(`${api.url}rest/login`, { data: { email: OWNER.email, password: OWNER.password } });
  expect(login.status(), await login.text()).toBe(200);

  await page.goto(`${api.url}workflow`);
  await expect(node(page, 'Start')).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('body')).toHaveAttribute('data-push-connected', 'true');
  await node(page, 'Start').getByTestId('canvas-plus-button').click();
  const custom = creatorCategory(page, 'Custom Nodes');
  await expect(custom).toBeVisible();
  if ((await custom.getAttribute('aria-expanded')) !== 'true') await custom.click();
  await expect(custom).toHaveAttribute('aria-expanded', 'true');
  await expect(creatorItem(page, 'Bookshelf')).toBeVisible();
  await page.screenshot({ path: '/tmp/custom-nodes-creator.png' });
  await creatorItem(page, 'Bookshelf').click();
  await expect(page.getByTestId('node-creator')).toBeHidden();
  await expect(ndv(page)).toBeVisible();

  // A new credential of the package's own type, pointed at the local server; saving tests it
  // with the type's test request (GET /me with the key header).
  const credentials = ndv(page).locator('[data-test-id="node-credentials"][data-name="bookshelfApi"]');
  await expect(credentials.getByText('Credentials for Bookshelf API are not set.')).toBeVisible();
  await credentials.getByTestId('node-credentials-select').click();
  await page.getByRole('option', { name: '- Create New -', exact: true }).click();
  await expect(dialog(page)).toBeVisible();
  await field(page, 'baseUrl').fill(shelf.url);
  await field(page, 'apiKey').fill(API_KEY);
  await dialog(page).getByTestId('credential-save-button').click();
  await expect(dialog(page).getByTestId('credential-banner')).toHaveText('Connection tested successfully');
  expect(shelf.seen).toContainEqual({ method: 'GET', url: '/me', apiKey: API_KEY });
  await dialog(page).getByTestId('credential-close-button').click();
  await expect(dialog(page)).toBeHidden();
  await expect(credentials.getByTestId('node-credentials-select')).toHaveValue('Bookshelf account');

  // Get Many (the default operation) with its default limit of 50: the first page only, as
  // pagination is off unless Return All is on.
  const before = shelf.seen.length;
  await ndv(page).getByTestId('node-execute-button').click();
  await expect(output(page).getByTestId('ndv-data-table')).toContainText('The Left Hand of Darkness');
  await expect(output(page).getByTestId('ndv-data-table')).toContainText('Octavia E. Butler');
  await expect(output(page)).toContainText('2 items');
  await page.screenshot({ path: '/tmp/custom-nodes-ndv-output.png' });
  await output(page).getByTestId('ndv-run-data-display-mode').getByText('JSON').click();
  // The items are the response's data array (rootProperty), each field as the server sent it.
  const json = output(page).getByTestId('ndv-data-container');
  for (const book of BOOKS) {
    await expect(json).toContainText(`"id": "${book.id}"`);
    await expect(json).toContainText(`"title": "${book.title}"`);
    await expect(json).toContainText(`"year": ${book.year}`);
  }
  await expect(json).not.toContainText('nextCursor');
  expect(shelf.seen.slice(before)).toEqual([{ method: 'GET', url: '/books?limit=50', apiKey: API_KEY }]);

  // Return All follows the cursor to the last page, the key on every request.
  const paged = shelf.seen.length;
  await ndv(page).getByTestId('parameter-input-returnAll').getByRole('switch').click();
  await expect(ndv(page).getByTestId('parameter-input-limit')).toHaveCount(0);
  await ndv(page).getByTestId('node-execute-button').click();
  await expect(output(page)).toContainText('3 items');
  await expect(json).toContainText('"title": "Solaris"');
  expect(shelf.seen.slice(paged)).toEqual([
    { method: 'GET', url: '/books', apiKey: API_KEY },
    { method: 'GET', url: '/books?cursor=page-2', apiKey: API_KEY },
  ]);

  // The Docs tab opens the page generated from the package's description.
  const popup = page.context().waitForEvent('page');
  await ndv(page).getByTestId('ndv-tab-docs').click();
  const docs = await popup;
  await expect(docs).toHaveURL(/\/docs\/nodes\/n8n-nodes-bookshelf\.bookshelf$/);
  await expect(docs.locator('h1')).toHaveText('Bookshelf');
  await expect(docs.locator('table')).toContainText('Return All');
  await docs.screenshot({ path: '/tmp/custom-nodes-docs.png', fullPage: true });
  await docs.close();

  await ndv(page).getByTestId('back-to-canvas').click();
  await expect(node(page, 'Bookshelf')).toBeVisible();
  await page.keyboard.press('Control+s');
  await expect(page.getByTestId('workflow-save-button')).toHaveAttribute('data-state', 'saved');
  workflowId = workflowIdOf(page);
});

test('the saved workflow runs with its custom credential after another restart', async ({ page }) => {
  expect(workflowId, 'the previous test saved the workflow').not.toBe('');
  await api!.stop();
  api = await startApi(dataDir, extensions, port, log);
  const login = await page.request.post(`${api.url}rest/login`, { data: { email: OWNER.email, password: OWNER.password } });
  expect(login.status(), await login.text()).toBe(200);

  await page.goto(`${api.url}workflow/${workflowId}`);
  await expect(node(page, 'Bookshelf')).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('body')).toHaveAttribute('data-push-connected', 'true');
  const before = shelf.seen.length;
  await page.getByTestId('execute-workflow-button').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Workflow executed successfully' })).toBeVisible();
  expect(shelf.seen.slice(before)).toEqual([
    { method: 'GET', url: '/books', apiKey: API_KEY },
    { method: 'GET', url: '/books?cursor=page-2', apiKey: API_KEY },
  ]);
  await node(page, 'Bookshelf').locator('[class*="nodeCard"]').dblclick();
  await expect(output(page)).toContainText('3 items');
});
