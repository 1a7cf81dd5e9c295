import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { addAfter, createWorkflow, edge, getWorkflow, links, node, openNewWorkflow, select, signIn, uniqueName, workflowIdOf } from '../support/editor';

// n8n's editor test fixture Test_workflow_1.json (a Manual Trigger feeding a Code node).
const FIXTURE = {"nodes": [{"parameters": {}, "id": "a2f85497-260d-4489-a957-2b7d88e2f33d", "name": "On clicking 'execute'", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "position": [220, 260]}, {"parameters": {"jsCode": "// Loop over input items and add a new field\n// called 'myNewField' to the JSON of each one\nfor (const item of $input.all()) {\n  item.json.myNewField = 1;\n}\n\nreturn $input.all();"}, "id": "9493d278-1ede-47c9-bedf-92ac3a737c65", "name": "Code", "type": "n8n-nodes-base.code", "typeVersion": 1, "position": [400, 260]}], "connections": {"On clicking 'execute'": {"main": [[{"node": "Code", "type": "main", "index": 0}]]}, "Code": {"main": [[]]}}};

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

async function menu(page: import('@playwright/test').Page, item: string): Promise<void> {
  await page.getByTestId('workflow-menu').click();
  await page.getByTestId(`workflow-menu-item-${item}`).click();
}

test('saves with Ctrl+S, keeps the canvas on the saved route and reloads it', async ({ page }) => {
  await openNewWorkflow(page);
  const name = uniqueName('Saved flow');
  await page.getByTestId('workflow-name-input').click();
  await page.getByTestId('workflow-name-input').fill('   ');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('toast').filter({ hasText: 'Please enter a name, or press esc to go back to the old one' })).toBeVisible();
  await page.getByTestId('workflow-name-input').fill(name);
  await page.keyboard.press('Enter');
  await addAfter(page, 'Start', 'edit fields', 'Edit Fields \\(Set\\)');
  await expect(page.getByTestId('workflow-save-button')).toHaveAttribute('data-state', 'unsaved');
  await page.keyboard.press('Control+s');
  await expect(page).toHaveURL(/\/workflow\/[^/]+\/workflowSave$/);
  await expect(page.getByTestId('workflow-save-button')).toHaveAttribute('data-state', 'saved');
  const id = workflowIdOf(page);
  await page.reload();
  await expect(node(page, 'Edit Fields')).toBeVisible();
  await expect(edge(page, 'Start', 'Edit Fields')).toHaveCount(1);
  await expect(page.getByTestId('workflow-name-input')).toHaveText(name);
  await expect(page).toHaveTitle(new RegExp(`${name}$`));
  const saved = await getWorkflow(page.request, id);
  expect(saved.active).toBe(false);
  expect(links(saved)).toEqual(['Start:0->Edit Fields']);
});

test('copies nodes as JSON and pastes them into another workflow', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openNewWorkflow(page);
  await addAfter(page, 'Start', 'edit fields', 'Edit Fields \\(Set\\)');
  await addAfter(page, 'Edit Fields', 'no operation', 'No Operation, do nothing');
  await select(page, 'Edit Fields');
  await select(page, 'No Operation, do nothing', ['Shift']);
  await page.keyboard.press('Control+c');
  await expect(page.getByTestId('toast').filter({ hasText: 'Copied' })).toBeVisible();
  const text = await page.evaluate(() => navigator.clipboard.readText());
  const copied = JSON.parse(text) as { nodes: Array<{ name: string }>; connections: Record<string, unknown> };
  expect(text).toBe(JSON.stringify(copied, null, 2));
  expect(copied.nodes.map((n) => n.name)).toEqual(['Edit Fields', 'No Operation, do nothing']);
  expect(Object.keys(copied.connections)).toEqual(['Edit Fields']);

  await page.keyboard.press('Control+s');
  await expect(page).toHaveURL(/workflowSave$/);
  await menu(page, 'new');
  await expect(page).toHaveURL(/\/workflow$/);
  await expect(node(page, 'Edit Fields')).toHaveCount(0);
  await paste(page);
  await expect(node(page, 'Edit Fields')).toBeVisible();
  await expect(edge(page, 'Edit Fields', 'No Operation, do nothing')).toHaveCount(1);
  // Pasting again renames the copies and their connection with them.
  await page.waitForTimeout(1100);
  await paste(page);
  await expect(node(page, 'Edit Fields1')).toBeVisible();
  await expect(edge(page, 'Edit Fields1', 'No Operation, do nothing1')).toHaveCount(1);
  await page.screenshot({ path: 'test-results/editor-pasted.png' });
});

/**
 * Headless Chromium does not turn Ctrl+V on the page body into a paste event, so this dispatches
 * the event a browser sends, carrying what the copy put on the clipboard.
 */
async function paste(page: import('@playwright/test').Page): Promise<void> {
  await page.evaluate(async () => {
    const data = new DataTransfer();
    data.setData('text/plain', await navigator.clipboard.readText());
    document.body.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true }));
  });
}

test('the open dialog filters by name and by all chosen tags', async ({ page }) => {
  const tagA = ((await (await page.request.post('/rest/tags', { data: { name: uniqueName('a').slice(0, 20) } })).json()) as { data: { id: string; name: string } }).data;
  const tagB = ((await (await page.request.post('/rest/tags', { data: { name: uniqueName('b').slice(0, 20) } })).json()) as { data: { id: string; name: string } }).data;
  const prefix = uniqueName('Filter');
  const graph = { nodes: [{ name: 'Start', type: 'n8n-nodes-base.start', typeVersion: 1, position: [240, 300], parameters: {} }], connections: {} };
  await createWorkflow(page.request, { name: `${prefix} one`, ...graph, tags: [tagA.id] });
  await createWorkflow(page.request, { name: `${prefix} two`, ...graph, tags: [tagA.id, tagB.id] });
  await createWorkflow(page.request, { name: `${prefix} three`, ...graph });
  await openNewWorkflow(page);
  await page.keyboard.press('Control+o');
  const dialog = page.getByTestId('workflow-open-modal');
  await expect(dialog).toBeVisible();
  await page.getByTestId('workflow-open-search').fill(prefix.toUpperCase());
  const rows = dialog.getByTestId('workflow-open-row');
  // Most recently updated first.
  await expect(rows).toHaveText([new RegExp(`${prefix} three`), new RegExp(`${prefix} two`), new RegExp(`${prefix} one`)]);
  await page.getByTestId('workflow-open-tags').click();
  await page.getByRole('option', { name: tagA.name }).click();
  await expect(rows).toHaveCount(2);
  await page.getByRole('option', { name: tagB.name }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(`${prefix} two`);
  await page.screenshot({ path: 'test-results/editor-open-dialog.png' });
  await rows.first().click();
  await expect(page).toHaveURL(/\/workflow\/[^/]+$/);
  await expect(page.getByTestId('workflow-name-input')).toHaveText(`${prefix} two`);
});

test('imports from a file and from a URL, and downloads under a safe file name', async ({ page }) => {
  await openNewWorkflow(page);
  const chooser = page.waitForEvent('filechooser');
  await menu(page, 'importFile');
  await (await chooser).setFiles({ name: 'flow.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(FIXTURE)) });
  for (const n of FIXTURE.nodes.filter((n) => n.name !== 'Start')) await expect(node(page, n.name)).toHaveCount(1);

  const bad = page.waitForEvent('filechooser');
  await menu(page, 'importFile');
  await (await bad).setFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"nodes": 1}') });
  await expect(page.getByTestId('toast').filter({ hasText: 'Could not import file' })).toBeVisible();

  const server: Server = createServer((req, res) => {
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify({ nodes: [{ name: 'From URL', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [0, 0], parameters: {} }], connections: {} }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const port = (server.address() as AddressInfo).port;
    await menu(page, 'importUrl');
    await page.getByTestId('import-url-input').fill(`http://127.0.0.1:${port}/flow.txt`);
    await page.getByTestId('import-url-button').click();
    await expect(page.getByText('Invalid URL')).toBeVisible();
    await page.getByTestId('import-url-input').fill(`http://127.0.0.1:${port}/flow.json`);
    await page.getByTestId('import-url-button').click();
    await expect(node(page, 'From URL')).toBeVisible();
  } finally {
    server.close();
  }

  await page.getByTestId('workflow-name-input').click();
  await page.getByTestId('workflow-name-input').fill('Report: daily / v2');
  await page.keyboard.press('Enter');
  const download = page.waitForEvent('download');
  await menu(page, 'download');
  const file = await download;
  expect(file.suggestedFilename()).toBe('Report__daily___v2.json');
  const body = JSON.parse(readFileSync(await file.path(), 'utf8')) as { name: string; nodes: Array<{ name: string }> };
  expect(body.name).toBe('Report: daily / v2');
  expect(body.nodes.map((n) => n.name)).toContain('From URL');
});

test('asks before leaving unsaved changes: cancel stays, discard leaves', async ({ page }) => {
  await openNewWorkflow(page);
  await addAfter(page, 'Start', 'edit fields', 'Edit Fields \\(Set\\)');
  await menu(page, 'new');
  await expect(page.getByTestId('unsaved-changes-modal')).toBeVisible();
  await page.getByTestId('unsaved-cancel').click();
  await expect(page.getByTestId('unsaved-changes-modal')).toBeHidden();
  await expect(node(page, 'Edit Fields')).toBeVisible();
  await page.keyboard.press('Control+Alt+n');
  await page.getByTestId('unsaved-discard').click();
  await expect(node(page, 'Edit Fields')).toHaveCount(0);
  await expect(page.getByTestId('toast').filter({ hasText: 'Workflow created' })).toBeVisible();
});

test('activation needs a trigger, saves a new workflow first and shows the notice until dismissed', async ({ page }) => {
  await openNewWorkflow(page);
  const toggle = page.getByTestId('workflow-activate-switch');
  await expect(toggle).toBeDisabled();
  // Trigger nodes have no input: picked from Start's plus they are placed, not connected.
  await addAfter(page, 'Start', 'schedule', 'Schedule Trigger');
  await expect(node(page, 'Schedule Trigger')).toBeVisible();
  await expect(toggle).toBeEnabled();
  await toggle.click({ force: true });
  await expect(page).toHaveURL(/\/workflow\/[^/]+/);
  await expect(page.getByTestId('activation-modal')).toBeVisible();
  await page.getByLabel("Don't show again").check();
  await page.getByRole('button', { name: 'Got it' }).click();
  await expect(toggle).toBeChecked();
  const id = workflowIdOf(page);
  expect((await getWorkflow(page.request, id)).active).toBe(true);
  await toggle.click({ force: true });
  await expect(toggle).not.toBeChecked();
  await toggle.click({ force: true });
  await expect(toggle).toBeChecked();
  await expect(page.getByTestId('activation-modal')).toHaveCount(0);
  await toggle.click({ force: true });
  await expect(toggle).not.toBeChecked();
  expect((await getWorkflow(page.request, id)).active).toBe(false);
});

test('workflow settings check the timeout; duplicate saves a copy in a new window; delete asks first', async ({ page, context }) => {
  await openNewWorkflow(page);
  const name = uniqueName('Settings flow');
  await page.getByTestId('workflow-name-input').click();
  await page.getByTestId('workflow-name-input').fill(name);
  await page.keyboard.press('Enter');
  await page.keyboard.press('Control+s');
  await expect(page).toHaveURL(/workflowSave$/);
  const id = workflowIdOf(page);

  // A workflow made in the editor runs in n8n 1.x's order; the dialog switches it back.
  expect((await getWorkflow(page.request, id)).settings?.executionOrder).toBe('v1');
  await menu(page, 'settings');
  const settings = page.getByTestId('workflow-settings-modal');
  const order = page.getByTestId('settings-execution-order');
  await expect(order).toHaveValue('v1 (recommended)');
  for (const width of [1440, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `/tmp/workflow-settings-${width}.png` });
  }
  await order.click();
  await page.getByRole('option', { name: 'v0 (legacy)' }).click();
  await expect(order).toHaveValue('v0 (legacy)');
  await page.getByTestId('settings-timeout-switch').check({ force: true });
  await page.getByTestId('settings-save-button').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Timeout is activated but set to 0' })).toBeVisible();
  await page.getByTestId('timeout-minutes').fill('2');
  await page.getByTestId('timeout-seconds').fill('5');
  await page.getByTestId('settings-save-button').click();
  await expect(settings).toBeHidden();
  const saved = await getWorkflow(page.request, id);
  expect(saved.settings?.executionTimeout).toBe(125);
  expect(saved.settings?.executionOrder).toBe('v0');

  await menu(page, 'duplicate');
  await page.getByTestId('duplicate-name-input').fill('  ');
  await page.getByTestId('duplicate-save-button').click();
  await expect(page.getByTestId('duplicate-modal')).toContainText('Please enter a name.');
  await page.getByTestId('duplicate-name-input').fill(`${name} copy`);
  const popup = context.waitForEvent('page');
  await page.getByTestId('duplicate-save-button').click();
  const copy = await popup;
  await expect(copy).toHaveURL(/\/workflow\/[^/]+$/);
  await expect(copy.getByTestId('workflow-name-input')).toHaveText(`${name} copy`);
  await copy.close();

  await menu(page, 'delete');
  await page.getByTestId('cancel-button').click();
  expect((await page.request.get(`/rest/workflows/${id}`)).status()).toBe(200);
  await menu(page, 'delete');
  await page.getByTestId('confirm-button').click();
  await expect(page).toHaveURL(/\/workflow$/);
  expect((await page.request.get(`/rest/workflows/${id}`)).status()).toBe(404);
});

test('a webhook workflow waits for its test call, runs when called, and the wait can be stopped', async ({ page }) => {
  await openNewWorkflow(page);
  await addAfter(page, 'Start', 'webhook', 'Webhook');
  await page.keyboard.press('Control+s');
  await expect(page).toHaveURL(/workflowSave$/);
  const saved = await getWorkflow(page.request, workflowIdOf(page));
  const path = saved.nodes.find((n) => n.name === 'Webhook')?.parameters.path as string;
  expect(path).toBeTruthy();

  const run = page.getByTestId('execute-workflow-button');
  await run.click();
  await expect(run).toHaveText('Waiting for Trigger Event');
  await page.getByTestId('stop-execution-button').click();
  await expect(run).toHaveText('Execute Workflow');
  expect((await page.request.get(`/webhook-test/${path}`)).status()).toBe(404);

  await run.click();
  await expect(run).toHaveText('Waiting for Trigger Event');
  const answer = await page.request.get(`/webhook-test/${path}?from=e2e`);
  expect(answer.status()).toBe(200);
  await expect(page.getByTestId('toast').filter({ hasText: 'Workflow executed successfully' })).toBeVisible();
  await expect(node(page, 'Webhook')).toHaveAttribute('data-status', 'success');
  await expect(run).toHaveText('Execute Workflow');
});

test('the sidebar lists newer versions from the version notification endpoint, the count capped at 99+', async ({ page, baseURL }) => {
  // The stand-in endpoint is on the editor's origin: the editor's CSP (connect-src) allows no other.
  const endpoint = new URL('/__e2e/versions/', baseURL).href;
  await page.route('**/rest/settings', async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { data: Record<string, unknown> };
    body.data.versionNotifications = { enabled: true, endpoint, infoUrl: 'https://versions.flowmill.invalid/info' };
    await route.fulfill({ response, json: body });
  });
  const versions = Array.from({ length: 120 }, (_, i) => ({ name: `9.${i}.0`, createdAt: '2026-01-02T03:04:05Z', description: `<p>Release ${i}</p>`, hasSecurityFix: i === 0 }));
  let instanceHeader: string | undefined;
  await page.route(`${endpoint}**`, async (route) => {
    instanceHeader = route.request().headers()['n8n-instance-id'];
    await route.fulfill({ json: versions, headers: { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*' } });
  });
  await openNewWorkflow(page);
  const entry = page.getByTestId('main-sidebar-updates');
  await expect(entry).toContainText('99+');
  expect(instanceHeader).toBeTruthy();
  await entry.click();
  const drawer = page.getByTestId('versions-drawer');
  await expect(drawer.locator('[data-test-id="version-card"][data-name="9.0.0"]').getByTestId('version-marker-securityFix')).toBeVisible();
  await expect(drawer.getByText('Release 119')).toBeAttached();
});

test('a Wait node holds the run for its time interval, then the run goes on', async ({ page }) => {
  const workflow = await createWorkflow(page.request, {
    name: uniqueName('Wait by time'),
    nodes: [
      { name: 'Start', type: 'n8n-nodes-base.start', typeVersion: 1, position: [240, 300], parameters: {} },
      { name: 'Wait', type: 'n8n-nodes-base.wait', typeVersion: 1, position: [460, 300], parameters: { amount: 2, unit: 'seconds' }, webhookId: 'e2e-wait-by-time' },
      { name: 'After', type: 'n8n-nodes-base.set', typeVersion: 1, position: [680, 300], parameters: { values: { string: [{ name: 'done', value: 'yes' }] } } },
    ],
    connections: { Start: { main: [[{ node: 'Wait', type: 'main', index: 0 }]] }, Wait: { main: [[{ node: 'After', type: 'main', index: 0 }]] } },
  });
  await page.goto(`/workflow/${workflow.id}`);
  await expect(page.locator('body')).toHaveAttribute('data-push-connected', 'true');
  const started = Date.now();
  await page.getByTestId('execute-workflow-button').click();
  await expect(node(page, 'Wait').getByTestId('node-executing')).toBeVisible();
  await expect(node(page, 'After').getByTestId('node-success')).toHaveCount(0);
  await expect(page.getByTestId('toast').filter({ hasText: 'Workflow executed successfully' })).toBeVisible();
  expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
  await expect(node(page, 'After').getByTestId('node-success')).toBeVisible();
});
