import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { createWorkflow, node, signIn, uniqueName } from '../support/editor';

const ndv = (page: Page) => page.getByTestId('ndv');

interface Credential {
  id: string;
  name: string;
}

/** Creates a postgres credential for the local server's database `database`. */
async function postgresCredential(request: APIRequestContext, database: string): Promise<Credential> {
  const created = await request.post('/rest/credentials', {
    data: {
      name: uniqueName(`Postgres ${database}`),
      type: 'postgres',
      nodesAccess: [{ nodeType: 'n8n-nodes-base.postgres' }],
      data: { host: '127.0.0.1', port: 5432, database, user: 'postgres', password: '', ssl: 'disable' },
    },
  });
  expect(created.status(), await created.text()).toBe(200);
  const body = (await created.json()) as { data: Credential };
  return { id: body.data.id, name: body.data.name };
}

/** Runs one statement with a Postgres node through the product and waits for the run's end. */
async function runSql(request: APIRequestContext, credential: Credential, query: string): Promise<void> {
  const workflowData = {
    name: uniqueName('SQL'),
    nodes: [
      { name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
      {
        name: 'SQL',
        type: 'n8n-nodes-base.postgres',
        typeVersion: 2.5,
        position: [200, 0],
        parameters: { operation: 'executeQuery', query, options: {} },
        credentials: { postgres: credential },
      },
    ],
    connections: { Start: { main: [[{ node: 'SQL', type: 'main', index: 0 }]] } },
    settings: { saveManualExecutions: true },
  };
  const started = await request.post('/rest/workflows/run', { data: { workflowData } });
  expect(started.status(), await started.text()).toBe(200);
  const { executionId } = ((await started.json()) as { data: { executionId: string } }).data;
  await expect
    .poll(
      async () => {
        const res = await request.get(`/rest/executions/${executionId}`);
        const body = (await res.json()) as { data?: { status: string; data?: { resultData?: { error?: { message: string } } } } };
        if (!res.ok() || !body.data) return `${res.status()} ${JSON.stringify(body)}`;
        return body.data.data?.resultData?.error?.message ?? body.data.status;
      },
      { timeout: 20_000 },
    )
    .toBe('success');
}

test.describe('Postgres lists tables and maps columns in the editor', () => {
  const database = `e2e_lookups_${Date.now()}`;
  let admin: Credential;

  test.beforeEach(async ({ page }) => {
    await signIn(page);
  });

  test.afterAll(async ({ request }) => {
    if (!admin) return;
    expect((await request.get('/rest/login')).status()).toBe(200);
    await runSql(request, admin, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  });

  test('picks the table from the list, fills the mapper and inserts the row', async ({ page }) => {
    test.setTimeout(120_000);
    admin = await postgresCredential(page.request, 'postgres');
    await runSql(page.request, admin, `CREATE DATABASE ${database}`);
    const shop = await postgresCredential(page.request, database);
    await runSql(
      page.request,
      shop,
      `CREATE TYPE size AS ENUM ('small', 'medium', 'large');
       CREATE TABLE orders (id serial PRIMARY KEY, item text NOT NULL, qty integer NOT NULL DEFAULT 1, size size, note text);
       CREATE TABLE customers (id serial PRIMARY KEY, name text NOT NULL);
       CREATE TABLE invoices (id serial PRIMARY KEY, total numeric NOT NULL)`,
    );

    const workflow = await createWorkflow(page.request, {
      name: uniqueName('Orders into Postgres'),
      nodes: [
        { name: 'When clicking "Execute Workflow"', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [240, 300], parameters: {} },
        {
          name: 'Postgres',
          type: 'n8n-nodes-base.postgres',
          typeVersion: 2.5,
          position: [480, 300],
          parameters: {
            schema: { __rl: true, mode: 'list', value: 'public' },
            table: { __rl: true, mode: 'list', value: '' },
            columns: { mappingMode: 'defineBelow', value: {} },
            options: {},
          },
          credentials: { postgres: shop },
        },
      ],
      connections: { 'When clicking "Execute Workflow"': { main: [[{ node: 'Postgres', type: 'main', index: 0 }]] } },
    });
    await page.goto(`/workflow/${workflow.id}`);
    await node(page, 'Postgres').locator('[class*="nodeCard"]').dblclick();
    await expect(ndv(page)).toBeVisible();

    // The table list comes from the database behind the node's credential.
    await expect(ndv(page).getByTestId('mapper-waiting')).toHaveText('Choose the Table to see its columns');
    const table = ndv(page).getByTestId('parameter-input-table');
    await table.getByTestId('rlc-list').click();
    const options = page.getByRole('option');
    await expect(options).toHaveText(['customers', 'invoices', 'orders']);
    await page.screenshot({ path: '/tmp/postgres-table-list.png' });
    await page.getByRole('option', { name: 'orders', exact: true }).click();

    // The mapper shows the table's columns: required ones marked, the enum as a choice.
    const mapper = ndv(page).getByTestId('resource-mapper');
    const fields = mapper.getByTestId('mapping-field');
    await expect(fields).toHaveCount(5);
    await expect(fields.first()).toHaveAttribute('data-field', 'id');
    await expect(mapper.getByLabel('item *')).toBeVisible();
    await expect(mapper.getByLabel('qty', { exact: true })).toBeVisible();
    await fields.filter({ has: page.getByLabel('id', { exact: true }) }).getByRole('button').click();
    await expect(fields).toHaveCount(4);
    await mapper.getByLabel('item *').fill('Fountain pen');
    await mapper.getByLabel('qty', { exact: true }).fill('3');
    await mapper.getByLabel('size', { exact: true }).click();
    await page.getByRole('option', { name: 'medium', exact: true }).click();
    await mapper.getByLabel('note', { exact: true }).fill('gift wrap');
    await mapper.getByLabel('note', { exact: true }).blur();
    await page.screenshot({ path: '/tmp/postgres-mapper.png' });
    // The list again, over the filled mapper; picking the same table keeps the values.
    await table.getByTestId('rlc-list').click();
    await expect(options).toHaveText(['customers', 'invoices', 'orders']);
    await page.screenshot({ path: '/tmp/postgres-list-and-mapper.png' });
    await page.getByRole('option', { name: 'orders', exact: true }).click();
    await expect(mapper.getByLabel('item *')).toHaveValue('Fountain pen');

    // Running the node inserts the row and shows it.
    await ndv(page).getByTestId('ndv-output-execute-node').click();
    const output = ndv(page).getByTestId('output-panel');
    await expect(output.getByTestId('ndv-data-table')).toContainText('Fountain pen');
    await expect(output.getByTestId('ndv-data-table')).toContainText('medium');
    await expect(output.getByTestId('ndv-data-table')).toContainText('gift wrap');
    await page.screenshot({ path: '/tmp/postgres-output.png' });

    await runSql(page.request, shop, `DO $$ BEGIN IF (SELECT count(*) FROM orders WHERE item = 'Fountain pen' AND qty = 3 AND size = 'medium') <> 1 THEN RAISE EXCEPTION 'row missing'; END IF; END $$`);
  });
});
