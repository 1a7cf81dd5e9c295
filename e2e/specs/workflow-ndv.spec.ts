import { expect, test, type Page } from '@playwright/test';
import { addAfter, createWorkflow, getWorkflow, node, signIn, uniqueName } from '../support/editor';

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

const ndv = (page: Page) => page.getByTestId('ndv');
const param = (page: Page, name: string) => ndv(page).getByTestId(`parameter-input-${name}`).last();
const output = (page: Page) => ndv(page).getByTestId('output-panel');
const input = (page: Page) => ndv(page).getByTestId('ndv-input-panel');

async function openNode(page: Page, name: string): Promise<void> {
  await node(page, name).locator('[class*="nodeCard"]').dblclick();
  await expect(ndv(page)).toBeVisible();
  await expect(ndv(page).getByTestId('node-title')).toHaveText(name);
}

async function closeNode(page: Page): Promise<void> {
  await ndv(page).getByTestId('back-to-canvas').click();
  await expect(ndv(page)).toBeHidden();
}

/**
 * Switches a parameter to expression mode and writes the expression in the editor dialog; `pick`
 * then filters the variable selector by a variable name and clicks the entry showing the given
 * value, which inserts the variable at the cursor.
 */
async function writeExpression(page: Page, parameter: string, expression: string, expected: string, pick?: { name: string; value: string }): Promise<void> {
  const item = ndv(page).getByTestId('parameter-item').filter({ has: page.getByTestId(`parameter-input-${parameter}`) }).last();
  await item.hover();
  await item.getByTestId('parameter-mode').getByText('Expression').click();
  const editor = page.getByTestId('expression-modal-input');
  await expect(editor).toBeVisible();
  await editor.fill(expression);
  if (pick !== undefined) {
    await page.getByTestId('variable-selector-filter').fill(pick.name);
    await page.getByTestId('variable-selector-item').filter({ hasText: pick.value }).first().click();
  }
  await expect(page.getByTestId('expression-modal-output')).toContainText(expected);
  await page.keyboard.press('Escape');
  await expect(editor).toBeHidden();
}

test('configures Set, IF and Code through the panel, runs them and reads table, JSON and binary output', async ({ page }) => {
  test.setTimeout(90_000);
  // Set 1 and IF 1 (the creator offers their n8n 1.x versions, tested in workflow-nodes-v1x):
  // their fixed collections exercise the generic editors.
  const name = uniqueName('Panel');
  const stub = (nodeName: string, type: string, x: number) => ({ name: nodeName, type: `n8n-nodes-base.${type}`, typeVersion: 1, position: [x, 300], parameters: {} });
  const link = (target: string) => ({ main: [[{ node: target, type: 'main', index: 0 }]] });
  const created = await createWorkflow(page.request, {
    name,
    nodes: [stub('Start', 'start', 240), stub('Set', 'set', 460), stub('IF', 'if', 680)],
    connections: { Start: link('Set'), Set: link('IF') },
  });
  await page.goto(`/workflow/${created.id}`);
  await expect(node(page, 'IF')).toBeVisible();
  await expect(page.locator('body')).toHaveAttribute('data-push-connected', 'true');

  // Set: boolean switch, fixed collection with multiple values, string, number, collection.
  await openNode(page, 'Set');
  await param(page, 'keepOnlySet').getByRole('switch').click({ force: true });
  await ndv(page).getByTestId('fixed-collection-add').first().click();
  await page.getByTestId('fixed-collection-add-option').filter({ hasText: 'Number' }).click();
  await param(page, 'name').locator('input').fill('count');
  await param(page, 'value').locator('input').fill('5');
  await ndv(page).getByTestId('fixed-collection-add').first().click();
  await page.getByTestId('fixed-collection-add-option').filter({ hasText: 'String' }).click();
  await param(page, 'name').locator('input').fill('label');
  // An expression written with the variable selector: the result is evaluated by the server.
  await writeExpression(page, 'value', '{{ 2 + 3 }} items in ', `5 items in ${name}`, { name: 'name', value: name });
  // Set has one option: adding picks it at once.
  await ndv(page).getByTestId('collection-parameter-add').click();
  await expect(param(page, 'dotNotation')).toBeVisible();
  await closeNode(page);

  // IF: options select, expression and number input.
  await openNode(page, 'IF');
  await ndv(page).getByTestId('fixed-collection-add').first().click();
  await page.getByTestId('fixed-collection-add-option').filter({ hasText: 'Number' }).click();
  // Before any run there is no input to read from.
  await writeExpression(page, 'value1', '{{ $json.count }}', 'No execution data available');
  await param(page, 'operation').locator('input:not([type="hidden"])').click();
  await page.getByRole('option', { name: 'Larger', exact: true }).click();
  await param(page, 'value2').locator('input').fill('3');
  await closeNode(page);

  // Code: the code edit dialog, the node color in the settings tab.
  await addAfter(page, 'IF', 'code', 'Code');
  await openNode(page, 'Code');
  const code = param(page, 'jsCode').getByTestId('code-editor');
  await code.fill(
    "return [{ json: { label: $input.first().json.label }, binary: { data: { data: 'aGVsbG8gd29ybGQ=', mimeType: 'text/plain', fileName: 'hello.txt', fileExtension: 'txt' } } }];",
  );
  await ndv(page).getByTestId('ndv-tab-settings').click();
  await param(page, 'color').locator('input').fill('#ff6d5a');
  // Leaving the field closes its color picker.
  await page.keyboard.press('Tab');
  await param(page, 'alwaysOutputData').getByRole('switch').click({ force: true });
  await closeNode(page);

  await page.keyboard.press('Control+s');
  await expect(page.getByTestId('workflow-save-button')).toHaveAttribute('data-state', 'saved');
  const stored = await getWorkflow(page.request, created.id);
  const byName = Object.fromEntries(stored.nodes.map((n) => [n.name, n as typeof n & { color?: string; alwaysOutputData?: boolean }]));
  expect(byName.Set?.parameters).toEqual({
    keepOnlySet: true,
    values: { number: [{ name: 'count', value: 5 }], string: [{ name: 'label', value: '={{ 2 + 3 }} items in {{$workflow.name}}' }] },
    options: { dotNotation: true },
  });
  expect(byName.IF?.parameters).toEqual({ conditions: { number: [{ value1: '={{ $json.count }}', operation: 'larger', value2: 3 }] } });
  expect(byName.Code?.parameters.jsCode).toContain('aGVsbG8gd29ybGQ=');
  expect(byName.Code).toMatchObject({ color: '#ff6d5a', alwaysOutputData: true });

  await page.getByTestId('execute-workflow-button').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Workflow executed successfully' })).toBeVisible();

  // IF: input from Set, output by branch; table and JSON.
  await openNode(page, 'IF');
  await expect(input(page).getByTestId('ndv-data-table')).toContainText(`5 items in ${name}`);
  await expect(output(page).getByTestId('branches')).toContainText('True Branch (1 item)');
  await expect(output(page).getByTestId('ndv-data-table')).toContainText('count');
  await output(page).getByTestId('branches').getByText('False Branch').click();
  await expect(output(page)).toContainText('No output data');
  await output(page).getByTestId('branches').getByText('True Branch').click();
  await output(page).getByTestId('ndv-run-data-display-mode').getByText('JSON').click();
  await expect(output(page).getByTestId('ndv-data-container')).toContainText(`"label": "5 items in ${name}"`);
  await closeNode(page);

  // Code produced binary data: the panel switches to it and shows the file.
  await openNode(page, 'Code');
  await expect(output(page).getByTestId('ndv-binary-entry')).toContainText('hello.txt');
  await output(page).getByTestId('ndv-view-binary-data').first().click();
  await expect(output(page).getByTestId('binary-data-text')).toContainText('hello world');
  await output(page).getByTestId('binary-data-back').click();
  await page.screenshot({ path: 'test-results/ndv-binary.png' });
  await closeNode(page);
});

// Twice runs once for each parent; each parent stamps its output with a random number.
const stamp = (from: string) => `return [{ json: { from: '${from}', stamp: Math.random() } }];`;
const MERGE_RUNS = {
  nodes: [
    { name: 'Start', type: 'n8n-nodes-base.start', typeVersion: 1, position: [240, 300], parameters: {} },
    { name: 'A', type: 'n8n-nodes-base.code', typeVersion: 1, position: [460, 200], parameters: { jsCode: stamp('a') } },
    { name: 'B', type: 'n8n-nodes-base.code', typeVersion: 1, position: [460, 400], parameters: { jsCode: stamp('b') } },
    { name: 'Twice', type: 'n8n-nodes-base.set', typeVersion: 1, position: [680, 300], parameters: { values: { string: [{ name: 'seen', value: '={{$json.from}}' }] } } },
  ],
  connections: {
    Start: { main: [[{ node: 'A', type: 'main', index: 0 }, { node: 'B', type: 'main', index: 0 }]] },
    A: { main: [[{ node: 'Twice', type: 'main', index: 0 }]] },
    B: { main: [[{ node: 'Twice', type: 'main', index: 0 }]] },
  },
};

async function outputJson(page: Page): Promise<string> {
  await output(page).getByTestId('ndv-run-data-display-mode').getByText('JSON').click();
  return output(page).getByTestId('ndv-data-container').innerText();
}

test('switches between runs, warns about stale data and runs one node again with the earlier data kept', async ({ page }) => {
  const workflow = await createWorkflow(page.request, { name: uniqueName('Runs'), ...MERGE_RUNS });
  await page.goto(`/workflow/${workflow.id}`);
  await expect(node(page, 'Twice')).toBeVisible();
  await expect(page.locator('body')).toHaveAttribute('data-push-connected', 'true');
  await page.getByTestId('execute-workflow-button').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Workflow executed successfully' })).toBeVisible();

  await openNode(page, 'A');
  const stampOfA = await outputJson(page);
  expect(stampOfA).toContain('"stamp"');
  await closeNode(page);

  // Two runs: the selector shows the last, the first holds the other parent's item.
  await openNode(page, 'Twice');
  const runs = output(page).getByTestId('run-selector');
  await expect(runs).toHaveValue(/^2 of 2/);
  const last = await output(page).getByTestId('ndv-data-table').innerText();
  await runs.click();
  await page.getByRole('option', { name: /^1 of 2/ }).click();
  await expect(runs).toHaveValue(/^1 of 2/);
  const earlier = await output(page).getByTestId('ndv-data-table').innerText();
  expect([earlier, last].map((text) => (text.includes('\tb') || text.endsWith('b') ? 'b' : 'a')).sort()).toEqual(['a', 'b']);

  // A parameter changed after the run marks the shown data as stale; running the node clears it.
  await param(page, 'name').locator('input').fill('seen2');
  await expect(output(page).getByTestId('ndv-stale-data-warning')).toBeVisible();
  await ndv(page).getByTestId('node-execute-button').click();
  await expect(output(page).getByTestId('ndv-data-table')).toContainText('seen2');
  await expect(output(page).getByTestId('ndv-stale-data-warning')).toBeHidden();
  await closeNode(page);

  // The parents were not run again: A still shows the same random stamp.
  await openNode(page, 'A');
  expect(await outputJson(page)).toBe(stampOfA);
  await closeNode(page);
});

test('stops a running execution from the canvas', async ({ page }) => {
  const workflow = await createWorkflow(page.request, {
    name: uniqueName('Stop'),
    nodes: [
      { name: 'Start', type: 'n8n-nodes-base.start', typeVersion: 1, position: [240, 300], parameters: {} },
      { name: 'Wait', type: 'n8n-nodes-base.wait', typeVersion: 1, position: [460, 300], parameters: { amount: 30, unit: 'seconds' }, webhookId: 'e2e-stop-wait' },
    ],
    connections: { Start: { main: [[{ node: 'Wait', type: 'main', index: 0 }]] } },
  });
  await page.goto(`/workflow/${workflow.id}`);
  await expect(page.locator('body')).toHaveAttribute('data-push-connected', 'true');
  await page.getByTestId('execute-workflow-button').click();
  await expect(node(page, 'Wait').getByTestId('node-executing')).toBeVisible();
  await page.getByTestId('stop-execution-button').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Execution stopped' })).toBeVisible();
  await expect(page.getByTestId('execute-workflow-button')).toBeEnabled();
  // The interrupted node's end reaches the editor too: it no longer shows as executing.
  await expect(node(page, 'Wait').getByTestId('node-executing')).toHaveCount(0);
  await page.screenshot({ path: 'test-results/execution-stopped.png' });
});

test('a failed execution is listed, retried and opened read-only with its node error', async ({ page }) => {
  const workflow = await createWorkflow(page.request, {
    name: uniqueName('Failing'),
    settings: { saveManualExecutions: true },
    nodes: [
      { name: 'Start', type: 'n8n-nodes-base.start', typeVersion: 1, position: [240, 300], parameters: {} },
      { name: 'Boom', type: 'n8n-nodes-base.code', typeVersion: 1, position: [460, 300], parameters: { jsCode: "throw new Error('the sky fell');" } },
    ],
    connections: { Start: { main: [[{ node: 'Boom', type: 'main', index: 0 }]] } },
  });
  await page.goto(`/workflow/${workflow.id}`);
  await expect(page.locator('body')).toHaveAttribute('data-push-connected', 'true');
  await page.getByTestId('execute-workflow-button').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'the sky fell' }).first()).toBeVisible();

  // The node error in the panel.
  await openNode(page, 'Boom');
  const error = output(page).getByTestId('node-error-view');
  await expect(error.getByTestId('node-error-message')).toContainText('the sky fell');
  await closeNode(page);

  // The executions list shows it as failed; a retry fails again and says so.
  await page.getByTestId('main-sidebar-executions').click();
  await page.getByTestId('executions-filter-workflow').click();
  await page.getByRole('option', { name: workflow.name }).click();
  const row = page.getByTestId('execution-list-item').first();
  await expect(row.getByTestId('execution-status')).toContainText('Error');
  const executionId = await row.getAttribute('data-execution-id');
  await row.getByTestId('execution-retry-button').click();
  await page.getByTestId('execution-retry-original').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Retry unsuccessful' })).toBeVisible();
  await expect(page.getByTestId('execution-retry-of').first()).toContainText(`#${executionId}`);

  // Opened read-only: the header names the execution, the canvas cannot be edited.
  await page.locator(`[data-test-id="execution-list-item"][data-execution-id="${executionId}"]`).getByTestId('execution-open-button').click();
  await expect(page).toHaveURL(new RegExp(`/execution/${executionId}$`));
  await expect(page.getByText(`Execution #${executionId}`)).toBeVisible();
  await openNode(page, 'Boom');
  await expect(output(page).getByTestId('node-error-message')).toContainText('the sky fell');
  await expect(ndv(page).getByTestId('node-execute-button')).toHaveCount(0);
  await page.screenshot({ path: 'test-results/execution-view-error.png' });
  await closeNode(page);

  // A missing execution: an error toast, then a new workflow.
  await page.goto('/execution/999999999');
  await expect(page.getByTestId('toast').filter({ hasText: 'Problem loading execution' })).toBeVisible();
  await expect(page).toHaveURL(/\/workflow$/);
});

test('date-time, multi-select, remote options, credential type, JSON and notice editors store what is picked', async ({ page }) => {
  test.setTimeout(90_000);
  const workflow = await createWorkflow(page.request, {
    name: uniqueName('Editors'),
    nodes: [
      { name: 'Schedule', type: 'n8n-nodes-base.scheduleTrigger', typeVersion: 1, position: [240, 300], parameters: { rule: { interval: [{ field: 'weeks' }] } } },
      { name: 'Wait', type: 'n8n-nodes-base.wait', typeVersion: 1, position: [460, 300], parameters: { resume: 'specificTime' }, webhookId: 'e2e-editors-wait' },
      { name: 'Date & Time', type: 'n8n-nodes-base.dateTime', typeVersion: 1, position: [680, 300], parameters: { value: '2024-01-01', dataPropertyName: 'formatted' } },
      { name: 'HTTP Request', type: 'n8n-nodes-base.httpRequest', typeVersion: 2, position: [900, 300], parameters: { url: 'http://127.0.0.1:1/', authentication: 'genericCredentialType', jsonParameters: true } },
    ],
    connections: {
      Schedule: { main: [[{ node: 'Wait', type: 'main', index: 0 }]] },
      Wait: { main: [[{ node: 'Date & Time', type: 'main', index: 0 }]] },
      'Date & Time': { main: [[{ node: 'HTTP Request', type: 'main', index: 0 }]] },
    },
  });
  await page.goto(`/workflow/${workflow.id}`);
  await expect(node(page, 'Wait')).toBeVisible();

  // Multi-select: weekdays added to the default Sunday; the trigger's notice is shown.
  await openNode(page, 'Schedule');
  await expect(ndv(page).getByTestId('parameter-notice').first()).toBeVisible();
  await param(page, 'triggerAtDay').locator('input:not([type="hidden"])').first().click();
  await page.getByRole('option', { name: 'Monday', exact: true }).click();
  await page.getByRole('option', { name: 'Friday', exact: true }).click();
  await page.keyboard.press('Tab');
  await closeNode(page);

  // Date and time: the shortcut fills today's date.
  await openNode(page, 'Wait');
  await param(page, 'dateTime').getByTestId('parameter-date-shortcuts').click();
  await page.getByRole('button', { name: 'Today', exact: true }).click();
  await closeNode(page);

  // Remote options: time zones come from the server.
  await openNode(page, 'Date & Time');
  await ndv(page).getByTestId('collection-parameter-add').click();
  await page.getByTestId('collection-parameter-add-option').filter({ hasText: 'From Timezone' }).click();
  await param(page, 'fromTimezone').locator('input:not([type="hidden"])').first().click();
  await page.getByRole('option', { name: /Europe\/Berlin/ }).first().click();
  await closeNode(page);

  // Credential type select, then the credential select for the chosen type; a JSON parameter.
  await openNode(page, 'HTTP Request');
  await param(page, 'genericAuthType').locator('input:not([type="hidden"])').first().click();
  await page.getByRole('option', { name: 'Basic Auth', exact: true }).click();
  await expect(ndv(page).getByTestId('node-credentials').filter({ has: page.getByTestId('credentials-label') })).toBeVisible();
  await param(page, 'headerParametersJson').getByTestId('code-editor').fill('{"x-test": "1"}');
  await closeNode(page);

  await page.keyboard.press('Control+s');
  await expect(page.getByTestId('workflow-save-button')).toHaveAttribute('data-state', 'saved');
  const stored = await getWorkflow(page.request, workflow.id);
  const parameters = Object.fromEntries(stored.nodes.map((n) => [n.name, n.parameters as Record<string, unknown>]));
  expect(parameters.Schedule).toEqual({ rule: { interval: [{ field: 'weeks', triggerAtDay: [0, 1, 5] }] } });
  const today = new Date();
  const day = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;
  expect(String(parameters.Wait?.dateTime)).toContain(day);
  expect(parameters['Date & Time']?.options).toEqual({ fromTimezone: 'Europe/Berlin' });
  expect(parameters['HTTP Request']).toMatchObject({ genericAuthType: 'httpBasicAuth', headerParametersJson: '{"x-test": "1"}' });
});
