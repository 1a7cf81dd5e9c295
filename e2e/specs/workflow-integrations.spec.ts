import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, test, type Page } from '@playwright/test';
import { node, openNewWorkflow, signIn, uniqueName, workflowIdOf } from '../support/editor';

// An n8n 1.x export (Webhook 2 → Postgres 2.5 select → Redis 1 set with a TTL → Redis 1 get →
// RabbitMQ 1.1 send to a queue), the file pkg/cli TestN8n1xExports checks node by node, imported
// through the editor and run on the scaled stack against the local Postgres, Redis and RabbitMQ.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const EXPORT = readFileSync(path.join(root, 'pkg/cli/testdata/n8n1x/workflows/product-cache.json'));
const QUEUE = 'product-cache-updates';
const AMQP = 'amqp://guest:guest@127.0.0.1:5672/';

const run = promisify(execFile);

/** Runs bin/backends (make bin/backends) and returns its JSON answer. */
async function backends(...args: string[]): Promise<unknown> {
  const bin = process.env.FLOWMILL_E2E_BIN ?? path.join(root, 'bin');
  const { stdout } = await run(path.join(bin, 'backends'), args, { timeout: 60_000 });
  return JSON.parse(stdout) as unknown;
}

function stackSetting(name: 'FLOWMILL_E2E_DATABASE_URL' | 'FLOWMILL_E2E_REDIS_URL'): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: this spec needs the stack global-setup.ts starts`);
  return value;
}

const ndv = (page: Page) => page.getByTestId('ndv');
const dialog = (page: Page) => page.getByTestId('credential-edit-dialog');
const field = (page: Page, name: string) => dialog(page).locator(`[data-test-id="credential-field"][data-name="${name}"]`);
const toast = (page: Page, text: string | RegExp) => page.getByTestId('toast').filter({ hasText: text });

async function openNode(page: Page, name: string): Promise<void> {
  await node(page, name).locator('[class*="nodeCard"]').dblclick();
  await expect(ndv(page)).toBeVisible();
}

async function closeNode(page: Page): Promise<void> {
  await ndv(page).getByTestId('back-to-canvas').click();
  await expect(ndv(page)).toBeHidden();
}

/**
 * Creates a credential from a node's credential select, as a user fixing an imported node
 * would: "Create New", a name, the fields, save (which tests the connection), close. The new
 * credential becomes the node's.
 */
async function createCredential(page: Page, nodeName: string, name: string, fields: Record<string, string>): Promise<void> {
  await openNode(page, nodeName);
  // The export names a credential this instance does not have.
  await expect(ndv(page).getByTestId('node-credentials').getByText(/do not exist/)).toBeVisible();
  await ndv(page).getByTestId('node-credentials-select').click();
  await page.getByRole('option', { name: '- Create New -', exact: true }).click();
  await expect(dialog(page)).toBeVisible();
  await dialog(page).getByTestId('credential-name').click();
  await dialog(page).getByTestId('credential-name-input').fill(name);
  await dialog(page).getByTestId('credential-name-input').press('Enter');
  for (const [key, value] of Object.entries(fields)) await field(page, key).fill(value);
  await dialog(page).getByTestId('credential-save-button').click();
  await expect(dialog(page).getByTestId('credential-banner')).toHaveText('Connection tested successfully');
  await dialog(page).getByTestId('credential-close-button').click();
  await expect(dialog(page)).toBeHidden();
  await expect(ndv(page).getByTestId('node-credentials-select')).toHaveValue(name);
  await expect(ndv(page).getByTestId('node-credentials').getByText(/do not exist/)).toHaveCount(0);
  await closeNode(page);
}

interface Cached {
  exists: boolean;
  value?: string;
  ttlMs?: number;
}

interface Queued {
  body: string;
  contentType: string;
  persistent: boolean;
}

/** The messages taken from the queue, waiting for the first. */
async function queued(): Promise<Queued[]> {
  return (await backends('amqp-get', '-url', AMQP, '-queue', QUEUE, '-wait', '15s')) as Queued[];
}

test.describe('an n8n export reading Postgres, caching in Redis and publishing to RabbitMQ', () => {
  const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  // SKUs with a quote: the select's where clause is parameterised, so they match only their row.
  const products = [
    { sku: `SKU-${stamp}-O'Brien`, name: 'Widget "Pro" 🚀', price: '12.50' },
    { sku: `SKU-${stamp}-2`, name: 'Gadget; DROP TABLE products', price: '7.25' },
    { sku: `SKU-${stamp}-3`, name: 'Gizmo', price: '99.00' },
  ];
  let redisUrl: string;
  let databaseName: string;
  let redisDatabase: string;
  let workflowId: string | undefined;

  test.beforeAll(async () => {
    const databaseUrl = stackSetting('FLOWMILL_E2E_DATABASE_URL');
    redisUrl = stackSetting('FLOWMILL_E2E_REDIS_URL');
    databaseName = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
    redisDatabase = new URL(redisUrl).pathname.slice(1) || '0';
    const literal = (s: string) => `'${s.replaceAll("'", "''")}'`;
    await backends(
      'sql',
      '-url',
      databaseUrl,
      'CREATE TABLE IF NOT EXISTS products (id serial PRIMARY KEY, sku text NOT NULL UNIQUE, name text NOT NULL, price numeric(10,2) NOT NULL)',
      `INSERT INTO products (sku, name, price) VALUES ${products.map((p) => `(${literal(p.sku)}, ${literal(p.name)}, ${p.price})`).join(', ')}`,
    );
    // The queue starts empty; the RabbitMQ node declares it as this does (durable).
    await backends('amqp-purge', '-url', AMQP, '-queue', QUEUE);
  });

  test.afterAll(async ({ request }) => {
    // The production webhook path stays free for a retry.
    if (workflowId) await request.patch(`/rest/workflows/${workflowId}`, { data: { active: false } });
  });

  test.beforeEach(async ({ page }) => {
    await signIn(page);
  });

  test('imported from a file, given credentials, runs from the editor and as an active workflow', async ({ page }) => {
    test.setTimeout(180_000);
    await openNewWorkflow(page);
    const chooser = page.waitForEvent('filechooser');
    await page.getByTestId('workflow-menu').click();
    await page.getByTestId('workflow-menu-item-importFile').click();
    await (await chooser).setFiles({ name: 'product-cache.json', mimeType: 'application/json', buffer: EXPORT });
    for (const name of ['Webhook', 'Find product', 'Cache product', 'Read cache', 'Publish update']) {
      await expect(node(page, name)).toHaveCount(1);
    }
    await expect(toast(page, 'Could not add')).toHaveCount(0);
    await page.getByTestId('workflow-name-input').click();
    const workflowName = uniqueName('Product cache');
    await page.getByTestId('workflow-name-input').fill(workflowName);
    await page.keyboard.press('Enter');

    const names = { postgres: uniqueName('Local Postgres'), redis: uniqueName('Local Redis'), rabbitmq: uniqueName('Local RabbitMQ') };
    await createCredential(page, 'Find product', names.postgres, { host: '127.0.0.1', database: databaseName, user: 'postgres' });
    await createCredential(page, 'Cache product', names.redis, { host: '127.0.0.1', database: redisDatabase });
    // The second Redis node takes the credential just created from its select.
    await openNode(page, 'Read cache');
    await ndv(page).getByTestId('node-credentials-select').click();
    await page.getByRole('option', { name: names.redis, exact: true }).click();
    await expect(ndv(page).getByTestId('node-credentials').getByText(/do not exist/)).toHaveCount(0);
    await closeNode(page);
    await createCredential(page, 'Publish update', names.rabbitmq, { hostname: '127.0.0.1', username: 'guest', password: 'guest' });
    await expect(page.getByTestId('node-issues')).toHaveCount(0);

    await page.keyboard.press('Control+s');
    await expect(page).toHaveURL(/\/workflow\/[^/]+/);
    await expect(page.getByTestId('workflow-save-button')).toHaveAttribute('data-state', 'saved');
    workflowId = workflowIdOf(page);

    // A test run: the editor waits for the test webhook, called with the first SKU.
    const [first, second] = products as [(typeof products)[number], (typeof products)[number]];
    const execute = page.getByTestId('execute-workflow-button');
    await execute.click();
    await expect(execute).toHaveText('Waiting for Trigger Event');
    const answer = await page.request.get(`/webhook-test/product-cache?sku=${encodeURIComponent(first.sku)}`);
    expect(answer.status(), await answer.text()).toBe(200);
    await expect(toast(page, 'Workflow executed successfully')).toBeVisible({ timeout: 60_000 });
    for (const name of ['Find product', 'Cache product', 'Read cache', 'Publish update']) {
      await expect(node(page, name).getByTestId('node-success')).toBeVisible();
    }
    await expectDelivered(first);

    // Active: the production webhook starts a run on a worker, listed with the executions.
    const toggle = page.getByTestId('workflow-activate-switch');
    await toggle.click({ force: true });
    // The notice about production runs shows in every fresh browser.
    await expect(page.getByTestId('activation-modal')).toBeVisible();
    await page.getByRole('button', { name: 'Got it' }).click();
    await expect(toggle).toBeChecked();
    const live = await page.request.get(`/webhook/product-cache?sku=${encodeURIComponent(second.sku)}`);
    expect(live.status(), await live.text()).toBe(200);
    await expectDelivered(second);

    await page.getByTestId('main-sidebar-executions').click();
    await page.getByTestId('executions-filter-workflow').click();
    await page.getByRole('option', { name: workflowName }).click();
    const row = page.locator(`[data-test-id="execution-list-item"]`).first();
    await expect(row.getByTestId('execution-status')).toContainText('Success');
    const executionId = await row.getAttribute('data-execution-id');
    await row.getByTestId('execution-open-button').click();
    await expect(page).toHaveURL(new RegExp(`/execution/${executionId}$`));
    await expect(page.getByText(`Execution #${executionId}`)).toBeVisible();
    await expect(node(page, 'Publish update').getByTestId('node-success')).toBeVisible();
    await page.screenshot({ path: '/tmp/integrations-shots/execution.png' });
    await openNode(page, 'Read cache');
    await expect(ndv(page).getByTestId('output-panel')).toContainText(second.sku);
    await page.screenshot({ path: '/tmp/integrations-shots/execution-read-cache.png' });
  });

  /** The product's row gets cached in Redis with its TTL and published to the queue, once. */
  async function expectDelivered(product: (typeof products)[number]): Promise<void> {
    // The webhook answers when called (n8n's default mode); the run goes on on a worker.
    const read = async () => (await backends('redis-get', '-url', redisUrl, '-key', `product:${product.sku}`)) as Cached;
    await expect.poll(async () => (await read()).exists, { timeout: 30_000 }).toBe(true);
    const cached = await read();
    const row = JSON.parse(cached.value!) as Record<string, unknown>;
    expect(row).toMatchObject({ sku: product.sku, name: product.name, price: product.price });
    expect(typeof row.id).toBe('number');
    expect(cached.ttlMs).toBeGreaterThan(0);
    expect(cached.ttlMs).toBeLessThanOrEqual(3600_000);

    // The message is the cached text, as Read cache returned it.
    const messages = await queued();
    expect(messages).toHaveLength(1);
    expect(messages[0]!.body).toBe(cached.value);
  }
});
