import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { addAfter, createWorkflow, edge, node, openNewWorkflow, paste, select, signIn, uniqueName } from '../support/editor';

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

const ndv = (page: Page) => page.getByTestId('ndv');
const card = (page: Page, name: string) => node(page, name).locator('[class*="nodeCard"]');

async function menu(page: Page, item: string): Promise<void> {
  await page.getByTestId('workflow-menu').click();
  await page.getByTestId(`workflow-menu-item-${item}`).click();
}

async function shoot(page: Page, name: string): Promise<void> {
  for (const width of [1440, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `/tmp/edflow/${name}-${width}.png` });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

/** Presses an arrow key until the selection is on the node (presses within 100 ms are dropped, spec 001 §9). */
async function arrow(page: Page, key: string, to: string): Promise<void> {
  await expect(async () => {
    await page.keyboard.press(key);
    await expect(card(page, to)).toHaveAttribute('data-selected', 'true', { timeout: 2000 });
  }).toPass();
}

function overlaps(a: { x: number; y: number; width: number; height: number }, b: { x: number; y: number; width: number; height: number }): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** A downloaded workflow, with its own Start as every Flowmill export has. */
const DOWNLOADED = {
  name: 'Downloaded',
  nodes: [
    { parameters: {}, name: 'Start', type: 'n8n-nodes-base.start', typeVersion: 1, position: [240, 300] },
    { parameters: { values: { string: [{ name: 'greeting', value: 'hi' }] } }, name: 'Greet', type: 'n8n-nodes-base.set', typeVersion: 1, position: [460, 300] },
    { parameters: {}, name: 'Done', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [680, 300] },
  ],
  connections: { Start: { main: [[{ node: 'Greet', type: 'main', index: 0 }]] }, Greet: { main: [[{ node: 'Done', type: 'main', index: 0 }]] } },
};

test('imports a downloaded workflow with its Start into a new canvas, and pastes it into a used one', async ({ page }) => {
  await openNewWorkflow(page);
  const chooser = page.waitForEvent('filechooser');
  await menu(page, 'importFile');
  await (await chooser).setFiles({ name: 'downloaded.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(DOWNLOADED)) });
  await expect(node(page, 'Greet')).toHaveCount(1);
  await expect(node(page, 'Done')).toHaveCount(1);
  // The untouched Start was replaced: one Start, connected as in the file.
  await expect(page.locator('[data-test-id="canvas-node"][data-name^="Start"]')).toHaveCount(1);
  await expect(edge(page, 'Start', 'Greet')).toHaveCount(1);
  await expect(edge(page, 'Greet', 'Done')).toHaveCount(1);
  await expect(page.getByTestId('toast').filter({ hasText: 'Could not add' })).toHaveCount(0);

  // The Start is in use now: a paste leaves its Start out, says so, and adds the others.
  await paste(page, JSON.stringify(DOWNLOADED));
  await expect(node(page, 'Greet1')).toHaveCount(1);
  await expect(node(page, 'Done1')).toHaveCount(1);
  await expect(edge(page, 'Greet1', 'Done1')).toHaveCount(1);
  await expect(page.locator('[data-test-id="canvas-node"][data-name^="Start"]')).toHaveCount(1);
  const warning = page.getByTestId('toast').filter({ hasText: 'Could not add Start' });
  await expect(warning).toContainText('The other nodes were added');
  await shoot(page, 'import-paste');
});

test('imports a downloaded workflow from a URL into a new canvas, its Start replacing the fresh one', async ({ page }) => {
  await openNewWorkflow(page);
  const server: Server = createServer((_req, res) => {
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify(DOWNLOADED));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await menu(page, 'importUrl');
    await page.getByTestId('import-url-input').fill(`http://127.0.0.1:${(server.address() as AddressInfo).port}/downloaded.json`);
    await page.getByTestId('import-url-button').click();
    await expect(node(page, 'Done')).toBeVisible();
  } finally {
    server.close();
  }
  await expect(page.locator('[data-test-id="canvas-node"][data-name^="Start"]')).toHaveCount(1);
  await expect(edge(page, 'Start', 'Greet')).toHaveCount(1);
  await expect(page.getByTestId('toast').filter({ hasText: 'Could not add' })).toHaveCount(0);
});

test('Execute Node with no earlier run runs the parents first; so does Execute previous nodes', async ({ page }) => {
  await openNewWorkflow(page);
  await addAfter(page, 'Start', 'edit fields', 'Edit Fields \\(Set\\)');
  await addAfter(page, 'Edit Fields', 'noop', 'No Operation, do nothing');

  // Nothing ran yet: the last node's input offers to execute the previous nodes.
  await node(page, 'No Operation, do nothing').locator('[class*="nodeCard"]').dblclick();
  await expect(ndv(page)).toBeVisible();
  await ndv(page).getByTestId('execute-previous-node').click();
  await expect(ndv(page).getByTestId('ndv-input-panel').getByTestId('ndv-items-count')).toHaveText('1 item');
  await ndv(page).getByTestId('back-to-canvas').click();
  await expect(node(page, 'Edit Fields')).toHaveAttribute('data-status', 'success');
  await page.getByTestId('clear-execution-data-button').click();
  await expect(node(page, 'Edit Fields')).not.toHaveAttribute('data-status', 'success');

  // Execute Node on Set with no run data: Start runs first, Set shows its output and check mark.
  await node(page, 'Edit Fields').locator('[class*="nodeCard"]').dblclick();
  await expect(ndv(page)).toBeVisible();
  await ndv(page).getByTestId('node-execute-button').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Workflow executed successfully' }).first()).toBeVisible();
  await expect(ndv(page).getByTestId('output-panel').getByTestId('ndv-items-count')).toHaveText('1 item');
  await shoot(page, 'execute-node');
  await ndv(page).getByTestId('back-to-canvas').click();
  await expect(node(page, 'Edit Fields')).toHaveAttribute('data-status', 'success');
  await expect(node(page, 'Edit Fields').getByTestId('node-success')).toHaveCount(1);
  await expect(node(page, 'Start')).toHaveAttribute('data-status', 'success');
});

test('keyboard: F2 renames by keyboard, arrows move the selection along connections, Enter creates a tag', async ({ page }) => {
  await openNewWorkflow(page);
  await addAfter(page, 'Start', 'edit fields', 'Edit Fields \\(Set\\)');
  await addAfter(page, 'Edit Fields', 'noop', 'No Operation, do nothing');
  await page.getByTestId('node-view').click({ position: { x: 40, y: 400 } });

  // F2: the name is selected in a focused input; Enter renames, Esc cancels.
  await select(page, 'Edit Fields');
  await page.keyboard.press('F2');
  const input = page.getByTestId('node-rename-input');
  await expect(input).toBeFocused();
  expect(await input.evaluate((el: HTMLInputElement) => [el.selectionStart, el.selectionEnd])).toEqual([0, 11]);
  await shoot(page, 'rename');
  await page.keyboard.type('Prepare');
  await page.keyboard.press('Enter');
  await expect(node(page, 'Prepare')).toHaveCount(1);
  await select(page, 'Prepare');
  // F2 has a 1.5 s debounce (spec 001 §9): press until the dialog opens.
  await expect(async () => {
    await page.keyboard.press('F2');
    await expect(input).toBeFocused({ timeout: 500 });
  }).toPass();
  await page.keyboard.type('Other');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('rename-node-modal')).toHaveCount(0);
  await expect(node(page, 'Prepare')).toHaveCount(1);

  // Arrows: the selection walks the connections and nothing moves.
  await select(page, 'Start');
  const before = await node(page, 'Start').boundingBox();
  await arrow(page, 'ArrowRight', 'Prepare');
  await arrow(page, 'ArrowRight', 'No Operation, do nothing');
  await arrow(page, 'ArrowLeft', 'Prepare');
  await expect(card(page, 'No Operation, do nothing')).not.toHaveAttribute('data-selected', 'true');
  expect(await node(page, 'Start').boundingBox()).toEqual(before);

  // Tags: Enter creates the typed tag and clears the input; clicking away applies.
  const first = uniqueName('alpha').replace(' ', '-');
  const second = uniqueName('beta').replace(' ', '-');
  await page.getByTestId('workflow-tags').click();
  await page.keyboard.type(first);
  await page.keyboard.press('Enter');
  await expect(page.locator('input[data-test-id="workflow-tags"], [data-test-id="workflow-tags"] input').first()).toHaveValue('');
  await page.keyboard.type(second);
  await page.getByTestId('node-view').click({ position: { x: 40, y: 400 } });
  const tags = page.getByTestId('workflow-tag');
  await expect(tags).toHaveText([first, second]);
  await shoot(page, 'tags');
});

test('toasts sit bottom-right, clear of the header, and never block the activation switch', async ({ page }) => {
  await openNewWorkflow(page);
  await addAfter(page, 'Start', 'http', 'HTTP Request');
  await page.getByTestId('node-view').click({ position: { x: 40, y: 400 } });
  await page.keyboard.press('Control+s');
  await expect(page).toHaveURL(/\/workflow\/[^/]+/);
  // The HTTP Request has no URL: running the workflow shows the "Workflow has issues" error.
  await page.getByTestId('execute-workflow-button').click();
  const toast = page.getByTestId('toast').filter({ hasText: 'Workflow has issues' });
  await expect(toast).toBeVisible();
  const box = (await toast.boundingBox())!;
  const viewport = page.viewportSize()!;
  expect(box.x + box.width).toBeGreaterThan(viewport.width - 60);
  expect(box.y + box.height).toBeGreaterThan(viewport.height - 60);
  for (const id of ['workflow-activate-switch', 'workflow-save-button']) {
    const target = page.getByTestId(id);
    if ((await target.count()) === 0) continue;
    const targetBox = (await target.boundingBox())!;
    expect(overlaps(box, targetBox)).toBe(false);
    // What a click at the control's centre would hit is the control, never a toast.
    const hit = await page.evaluate(([x, y]) => {
      const element = document.elementFromPoint(x as number, y as number);
      return { inToast: element?.closest('[data-test-id="toast"]') !== null, inHeader: element?.closest('[data-test-id="workflow-header"]') !== null };
    }, [targetBox.x + targetBox.width / 2, targetBox.y + targetBox.height / 2]);
    expect(hit).toEqual({ inToast: false, inHeader: true });
  }
  await shoot(page, 'toast');
});

test('consistent feedback: blocked Execute Node, name errors, timeout typing, failed nodes, long duplicate names', async ({ page }) => {
  const failing = await createWorkflow(page.request, {
    name: uniqueName('Feedback'),
    nodes: [
      { parameters: {}, name: 'Start', type: 'n8n-nodes-base.start', typeVersion: 1, position: [240, 300] },
      { parameters: { jsCode: "throw new Error('boom');" }, name: 'Fail', type: 'n8n-nodes-base.code', typeVersion: 1, position: [460, 300] },
      { parameters: {}, name: 'After', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [680, 300] },
      { parameters: {}, name: 'Request', type: 'n8n-nodes-base.httpRequest', typeVersion: 1, position: [460, 500], disabled: true },
    ],
    connections: { Start: { main: [[{ node: 'Fail', type: 'main', index: 0 }]] }, Fail: { main: [[{ node: 'After', type: 'main', index: 0 }]] } },
    settings: {},
  });
  await page.goto(`/workflow/${failing.id}`);
  await expect(node(page, 'Fail')).toBeVisible();
  await expect(page.locator('body')).toHaveAttribute('data-push-connected', 'true');

  // A failed node shows no item count on its outgoing connection.
  await page.getByTestId('execute-workflow-button').click();
  await expect(node(page, 'Fail')).toHaveAttribute('data-status', 'issues');
  await expect(page.getByTestId('execute-workflow-button')).toBeEnabled();
  await expect(page.getByTestId('edge-label').filter({ has: page.getByTestId('edge-items') }).and(page.locator('[data-source="Fail"]'))).toHaveCount(0);
  await shoot(page, 'failed-node');

  // With node issues both Execute Node buttons are disabled.
  await select(page, 'Request');
  await page.keyboard.press('d');
  await node(page, 'Request').locator('[class*="nodeCard"]').dblclick();
  await expect(ndv(page)).toBeVisible();
  await expect(ndv(page).getByTestId('node-execute-button')).toBeDisabled();
  await expect(ndv(page).getByTestId('ndv-output-execute-node')).toBeDisabled();
  await shoot(page, 'issues-ndv');
  await ndv(page).getByTestId('back-to-canvas').click();

  // "Name missing" goes away after a valid name.
  await page.getByTestId('workflow-name-input').click();
  await page.getByTestId('workflow-name-input').fill('   ');
  await page.keyboard.press('Enter');
  const missing = page.getByTestId('toast').filter({ hasText: 'Name missing' });
  await expect(missing).toBeVisible();
  await page.getByTestId('workflow-name-input').fill(uniqueName('Renamed'));
  await page.keyboard.press('Enter');
  await expect(missing).toHaveCount(0);

  // Typing 75 into the timeout minutes gives 75.
  await menu(page, 'settings');
  await page.getByTestId('settings-timeout-switch').click({ force: true });
  const minutes = page.getByTestId('timeout-minutes');
  await minutes.fill('');
  await minutes.pressSequentially('75');
  await expect(minutes).toHaveValue('75');
  await shoot(page, 'settings-timeout');
  await page.keyboard.press('Escape');

  // A 300-character copy name is refused as too long, not cut.
  await menu(page, 'duplicate');
  const copyName = page.getByTestId('duplicate-name-input');
  await copyName.fill('x'.repeat(300));
  await expect(copyName).toHaveValue('x'.repeat(300));
  await page.getByTestId('duplicate-save-button').click();
  await expect(page.getByTestId('duplicate-modal')).toContainText('too long');
  await expect(page.getByTestId('duplicate-modal')).toContainText('128');
  await shoot(page, 'duplicate-long');
});

/** Code returns fields in a non-alphabetical order; Set then adds one. */
const ORDERED = {
  nodes: [
    { name: 'Start', type: 'n8n-nodes-base.start', typeVersion: 1, position: [240, 300], parameters: {} },
    {
      name: 'Code',
      type: 'n8n-nodes-base.code',
      typeVersion: 1,
      position: [460, 300],
      parameters: { jsCode: "return [{ json: { id: 1, name: 'Ann', score: 9.5, tags: ['x'], nested: { z: 1, a: 2 } } }];" },
    },
    { name: 'Set', type: 'n8n-nodes-base.set', typeVersion: 1, position: [680, 300], parameters: { values: { string: [{ name: 'added', value: 'yes' }] } } },
  ],
  connections: {
    Start: { main: [[{ node: 'Code', type: 'main', index: 0 }]] },
    Code: { main: [[{ node: 'Set', type: 'main', index: 0 }]] },
  },
};

test('output fields keep the order the nodes wrote them in, in the table and the JSON view', async ({ page }) => {
  const workflow = await createWorkflow(page.request, { name: uniqueName('Order'), ...ORDERED });
  await page.goto(`/workflow/${workflow.id}`);
  await expect(node(page, 'Set')).toBeVisible();
  await card(page, 'Set').dblclick();
  await expect(ndv(page)).toBeVisible();
  await ndv(page).getByTestId('node-execute-button').click();
  const output = ndv(page).getByTestId('output-panel');
  await expect(output.getByTestId('ndv-items-count')).toHaveText('1 item');

  const fields = ['id', 'name', 'score', 'tags', 'nested', 'added'];
  await output.getByTestId('ndv-run-data-display-mode').getByText('Table').click();
  await expect(output.getByTestId('ndv-table-header')).toHaveText(fields);
  // The input table (Code's output) has the same order without the added field.
  await expect(ndv(page).getByTestId('ndv-input-panel').getByTestId('ndv-table-header')).toHaveText(fields.slice(0, 5));
  await shoot(page, 'field-order-table');

  await output.getByTestId('ndv-run-data-display-mode').getByText('JSON').click();
  const text = await output.getByTestId('ndv-data-container').innerText();
  const at = fields.map((field) => text.indexOf(`"${field}"`));
  expect(at.every((position) => position >= 0)).toBe(true);
  expect(at).toEqual([...at].sort((a, b) => a - b));
  // Nested objects keep their order too.
  expect(text.indexOf('"z"')).toBeLessThan(text.indexOf('"a"'));
  await shoot(page, 'field-order-json');
});
