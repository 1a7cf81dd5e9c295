import { expect, test, type Locator, type Page } from '@playwright/test';
import { createWorkflow, node, openNewWorkflow, paste, signIn, uniqueName } from '../support/editor';

type Box = { x: number; y: number; width: number; height: number };

function intersects(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

async function box(locator: Locator): Promise<Box> {
  const found = await locator.boundingBox();
  expect(found, 'element has a bounding box').not.toBeNull();
  return found as Box;
}

const card = (page: Page, name: string): Locator => node(page, name).locator('[class*="nodeCard"]');
const scale = async (page: Page) => Number(/scale\(([\d.]+)\)/.exec((await page.locator('.react-flow__viewport').getAttribute('style')) ?? '')?.[1]);

const PASTED = JSON.stringify({
  nodes: [
    { name: 'Pasted One', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [0, 0], parameters: {} },
    { name: 'Pasted Two', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [220, 0], parameters: {} },
  ],
  connections: { 'Pasted One': { main: [[{ node: 'Pasted Two', type: 'main', index: 0 }]] } },
});

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

test('a 100-node workflow zoomed out keeps its node names readable', async ({ page }) => {
  const nodes = [{ name: 'Start', type: 'n8n-nodes-base.start', typeVersion: 1, position: [0, 0], parameters: {} }];
  for (let i = 1; i < 100; i++) nodes.push({ name: `Step ${i}`, type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [(i % 10) * 220, Math.floor(i / 10) * 200], parameters: {} });
  const workflow = await createWorkflow(page.request, { name: uniqueName('Large'), nodes, connections: {} });
  await page.goto(`/workflow/${workflow.id}`);
  await expect(node(page, 'Step 99')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('node-view')).toHaveAttribute('data-zoomed-out', 'true');
  expect(await scale(page)).toBeLessThan(0.45);

  // Names are drawn, at least 8 px tall on screen, on one line, and do not run into their neighbours.
  const name = (n: string) => node(page, n).locator('[class*="nodeName"]');
  await expect(name('Step 55')).toBeVisible();
  await expect(name('Step 55')).toHaveText('Step 55');
  const height = await name('Step 55').evaluate((el) => el.getBoundingClientRect().height);
  expect(height).toBeGreaterThanOrEqual(8);
  const [a, b, below] = await Promise.all([box(name('Step 55')), box(name('Step 56')), box(card(page, 'Step 65'))]);
  expect(intersects(a, b)).toBe(false);
  expect(intersects(a, below)).toBe(false);
  const fits = await name('Step 55').evaluate((el) => el.scrollWidth <= el.clientWidth);
  expect(fits).toBe(true);
  await page.screenshot({ path: '/tmp/editor-canvas-zoomed-out-1440.png' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: '/tmp/editor-canvas-zoomed-out-1280.png' });
});

test('a backward connection loops below the nodes and every connection has an arrowhead', async ({ page }) => {
  const workflow = await createWorkflow(page.request, {
    name: uniqueName('Loop'),
    nodes: [
      { name: 'Start', type: 'n8n-nodes-base.start', typeVersion: 1, position: [240, 300], parameters: {} },
      { name: 'Check', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [460, 300], parameters: {} },
      { name: 'Again', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [680, 300], parameters: {} },
    ],
    connections: {
      Start: { main: [[{ node: 'Check', type: 'main', index: 0 }]] },
      Check: { main: [[{ node: 'Again', type: 'main', index: 0 }]] },
      Again: { main: [[{ node: 'Check', type: 'main', index: 0 }]] },
    },
  });
  await page.goto(`/workflow/${workflow.id}`);
  await expect(node(page, 'Again')).toBeVisible({ timeout: 30_000 });
  const back = page.locator('[data-test-id="canvas-edge"][data-source="Again"][data-target="Check"]');
  await expect(back).toHaveAttribute('data-backward', 'true');
  await expect(page.locator('[data-test-id="canvas-edge"][data-source="Start"]')).not.toHaveAttribute('data-backward', 'true');
  const [line, check, again, checkName] = await Promise.all([box(back), box(card(page, 'Check')), box(card(page, 'Again')), box(node(page, 'Check').locator('[class*="nodeName"]'))]);
  // The loop passes under both cards and their names instead of across them.
  expect(line.y + line.height).toBeGreaterThan(checkName.y + checkName.height);
  expect(line.x).toBeLessThan(check.x);
  expect(line.x + line.width).toBeGreaterThan(again.x + again.width);
  await expect(page.getByTestId('edge-arrow')).toHaveCount(3);
  const fill = await page.getByTestId('edge-arrow').first().evaluate((el) => getComputedStyle(el).fill);
  expect(fill).not.toBe('none');
  await page.screenshot({ path: '/tmp/editor-canvas-loop-1440.png' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: '/tmp/editor-canvas-loop-1280.png' });
});

test('pasted nodes land beside the workflow, not on it, and the view follows them', async ({ page, context }) => {
  const workflow = await createWorkflow(page.request, {
    name: uniqueName('Paste'),
    nodes: [
      { name: 'Start', type: 'n8n-nodes-base.start', typeVersion: 1, position: [240, 300], parameters: {} },
      { name: 'Far', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [1400, 300], parameters: {} },
    ],
    connections: {},
  });
  await page.goto(`/workflow/${workflow.id}`);
  await expect(node(page, 'Far')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('reset-zoom-button').click();
  await expect.poll(() => scale(page)).toBe(1);
  // The last click is right on top of Start: a paste there would cover it.
  const start = await box(card(page, 'Start'));
  await page.getByTestId('node-view').click({ position: { x: start.x + start.width + 6 - (await box(page.getByTestId('node-view'))).x, y: start.y + 10 - (await box(page.getByTestId('node-view'))).y } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await paste(page, PASTED);
  await expect(node(page, 'Pasted Two')).toBeVisible();

  const view = await box(page.getByTestId('node-view'));
  const existing = await Promise.all([box(node(page, 'Start')), box(node(page, 'Far'))]);
  for (const name of ['Pasted One', 'Pasted Two']) {
    // The view moved to show them: wait for the animation to end inside the canvas.
    await expect.poll(async () => {
      const b = await box(card(page, name));
      return b.x >= view.x && b.y >= view.y && b.x + b.width <= view.x + view.width && b.y + b.height <= view.y + view.height;
    }).toBe(true);
  }
  const after = await Promise.all([box(node(page, 'Start')), box(node(page, 'Far')), box(node(page, 'Pasted One')), box(node(page, 'Pasted Two'))]);
  for (const pasted of after.slice(2)) for (const old of after.slice(0, 2)) expect(intersects(pasted, old)).toBe(false);
  // Beside the workflow: right of its rightmost node.
  expect(after[2]!.x).toBeGreaterThan(after[1]!.x + after[1]!.width);
  expect(existing.length).toBe(2);
  await page.screenshot({ path: '/tmp/editor-canvas-paste-1440.png' });
});

async function addStickyNearStart(page: Page): Promise<void> {
  await openNewWorkflow(page);
  await page.getByTestId('add-sticky-button').click();
  const sticky = page.locator('.react-flow__node-stickyNote');
  await expect(sticky).toHaveCount(1);
  const [note, start, view] = await Promise.all([box(sticky), box(node(page, 'Start')), box(page.getByTestId('node-view'))]);
  expect(intersects(note, start)).toBe(false);
  // Still near the centre: fully in view.
  expect(note.x).toBeGreaterThanOrEqual(view.x);
  expect(note.y).toBeGreaterThanOrEqual(view.y);
  expect(note.x + note.width).toBeLessThanOrEqual(view.x + view.width);
  expect(note.y + note.height).toBeLessThanOrEqual(view.y + view.height);
  await page.screenshot({ path: `/tmp/editor-canvas-sticky-${page.viewportSize()?.width}.png` });
}

for (const size of [
  { width: 1440, height: 900 },
  { width: 1280, height: 800 },
]) {
  test(`a new sticky note goes to free space in view, not over Start (${size.width} px)`, async ({ page }) => {
    await page.setViewportSize(size);
    await addStickyNearStart(page);
  });
}

// Layout: nothing overlaps, wraps letter by letter or is cut off (1280 and 1440 px wide).

const ndv = (page: Page) => page.getByTestId('ndv');

async function openNode(page: Page, name: string): Promise<void> {
  await card(page, name).dblclick();
  await expect(ndv(page)).toBeVisible();
  await expect(ndv(page).getByTestId('node-title')).toHaveText(name);
}

/** True when the element shows all its content (nothing cut off or hidden behind an ellipsis). */
const notClipped = (locator: Locator) => locator.evaluate((el) => el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight + 1);

for (const size of [
  { width: 1440, height: 900 },
  { width: 1280, height: 800 },
]) {
  test(`Switch and Compare Datasets output labels and + buttons do not overlap (${size.width} px)`, async ({ page }) => {
    await page.setViewportSize(size);
    const workflow = await createWorkflow(page.request, {
      name: uniqueName('Outputs'),
      nodes: [
        { name: 'Start', type: 'n8n-nodes-base.start', typeVersion: 1, position: [240, 300], parameters: {} },
        { name: 'Switch', type: 'n8n-nodes-base.switch', typeVersion: 1, position: [460, 300], parameters: {} },
        { name: 'Compare Datasets', type: 'n8n-nodes-base.compareDatasets', typeVersion: 1, position: [460, 560], parameters: {} },
        { name: 'Same', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [800, 560], parameters: {} },
      ],
      connections: { 'Compare Datasets': { main: [[], [{ node: 'Same', type: 'main', index: 0 }]] } },
    });
    await page.goto(`/workflow/${workflow.id}`);
    await expect(node(page, 'Same')).toBeVisible({ timeout: 30_000 });
    await page.getByTestId('reset-zoom-button').click();
    await expect.poll(() => scale(page)).toBe(1);
    for (const name of ['Switch', 'Compare Datasets']) {
      const labels = node(page, name).getByTestId('canvas-output-label');
      const buttons = node(page, name).getByTestId('canvas-plus-button');
      await expect(labels).toHaveCount(4);
      const boxes = [...(await Promise.all((await labels.all()).map(box))), ...(await Promise.all((await buttons.all()).map(box)))];
      expect(boxes.length).toBeGreaterThanOrEqual(name === 'Switch' ? 8 : 7);
      for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) expect(intersects(boxes[i]!, boxes[j]!), `${name}: boxes ${i} and ${j} overlap`).toBe(false);
    }
    await page.screenshot({ path: `/tmp/editor-canvas-outputs-${size.width}.png` });
  });

  test(`node panel headers, webhook URLs and input headers fit (${size.width} px)`, async ({ page }) => {
    await page.setViewportSize(size);
    const workflow = await createWorkflow(page.request, {
      name: uniqueName('Headers'),
      nodes: [
        { name: 'Schedule Trigger', type: 'n8n-nodes-base.scheduleTrigger', typeVersion: 1, position: [240, 300], parameters: {} },
        { name: 'Webhook', type: 'n8n-nodes-base.webhook', typeVersion: 1, position: [240, 560], parameters: { path: 'layout-check' }, webhookId: 'layout-check-id' },
        { name: 'Set', type: 'n8n-nodes-base.set', typeVersion: 1, position: [460, 300], parameters: {} },
      ],
      connections: { 'Schedule Trigger': { main: [[{ node: 'Set', type: 'main', index: 0 }]] } },
    });
    await page.goto(`/workflow/${workflow.id}`);
    await expect(node(page, 'Set')).toBeVisible({ timeout: 30_000 });

    await openNode(page, 'Schedule Trigger');
    expect(await notClipped(ndv(page).getByTestId('node-title'))).toBe(true);
    const execute = ndv(page).getByTestId('node-execute-button');
    await expect(execute).toBeVisible();
    expect(await notClipped(execute.locator('.mantine-Button-label'))).toBe(true);
    await page.screenshot({ path: `/tmp/editor-ndv-header-${size.width}.png` });
    await ndv(page).getByTestId('back-to-canvas').click();

    await openNode(page, 'Webhook');
    const method = ndv(page).getByTestId('node-webhook-method').first();
    await expect(method).toHaveText('GET');
    // One line: no taller than the URL's first line.
    expect((await box(method)).height).toBeLessThan(20);
    await page.screenshot({ path: `/tmp/editor-ndv-webhook-${size.width}.png` });
    await ndv(page).getByTestId('back-to-canvas').click();

    await openNode(page, 'Set');
    const inputPanel = ndv(page).getByTestId('ndv-input-panel');
    const header = inputPanel.getByTestId('run-data-pane-header');
    await expect(header).toBeVisible();
    // With data: title, item count and display modes all inside the header.
    await inputPanel.getByTestId('execute-previous-node').click();
    await expect(inputPanel.getByTestId('ndv-items-count')).toBeVisible({ timeout: 30_000 });
    await expect(inputPanel.getByTestId('ndv-run-data-display-mode')).toBeVisible();
    const outer = await box(header);
    for (const child of await header.locator(':scope > *, :scope > * > *').all()) {
      const inner = await box(child);
      expect(inner.x).toBeGreaterThanOrEqual(outer.x - 0.5);
      expect(inner.x + inner.width).toBeLessThanOrEqual(outer.x + outer.width + 0.5);
    }
    expect(await notClipped(header)).toBe(true);
    // The Fixed/Expression control shows on hover beside the label, never over it.
    const item = ndv(page).getByTestId('parameter-item').first();
    await item.hover();
    const options = item.getByTestId('parameter-options').first();
    await expect(options).toBeVisible();
    expect(intersects(await box(item.getByTestId('parameter-label').first()), await box(options))).toBe(false);
    await page.screenshot({ path: `/tmp/editor-ndv-input-${size.width}.png` });
  });

  test(`the expression dialog shows its whole variable list (${size.width} px)`, async ({ page }) => {
    await page.setViewportSize(size);
    const workflow = await createWorkflow(page.request, {
      name: uniqueName('Expression'),
      nodes: [{ name: 'Start', type: 'n8n-nodes-base.start', typeVersion: 1, position: [240, 300], parameters: {} }, { name: 'Set', type: 'n8n-nodes-base.set', typeVersion: 1, position: [460, 300], parameters: { values: { string: [{ name: 'a', value: 'b' }] } } }],
      connections: { Start: { main: [[{ node: 'Set', type: 'main', index: 0 }]] } },
    });
    await page.goto(`/workflow/${workflow.id}`);
    await openNode(page, 'Set');
    const item = ndv(page).getByTestId('parameter-item').filter({ has: page.getByTestId('parameter-input-value') }).last();
    await item.hover();
    await item.getByTestId('parameter-mode').getByText('Expression').click();
    const modal = page.getByTestId('expression-editor-modal');
    await expect(modal).toBeVisible();
    const selector = modal.getByTestId('variable-selector');
    const viewport = page.viewportSize()!;
    // The list ends inside the dialog, and the dialog inside the window (measured once the
    // dialog's opening transition has settled).
    await expect
      .poll(async () => {
        const [l, d] = await Promise.all([box(selector), box(modal)]);
        return l.y + l.height <= d.y + d.height && d.y + d.height <= viewport.height;
      })
      .toBe(true);
    const list = await box(selector);
    // Its last entry can be scrolled into view and is then fully visible.
    const last = modal.getByTestId('variable-selector-item').last();
    await last.scrollIntoViewIfNeeded();
    const lastBox = await box(last);
    expect(lastBox.y + lastBox.height).toBeLessThanOrEqual(list.y + list.height + 1);
    await page.screenshot({ path: `/tmp/editor-expression-${size.width}.png` });
  });

  test(`delete confirmation wraps long names and its button is filled; sidebar expands; About copies the instance id (${size.width} px)`, async ({ page, context }) => {
    await page.setViewportSize(size);
    const longName = uniqueName(`Quarterly ${'reconciliation-of-every-account-'.repeat(3)}end`);
    const workflow = await createWorkflow(page.request, { name: longName, nodes: [{ name: 'Start', type: 'n8n-nodes-base.start', typeVersion: 1, position: [240, 300], parameters: {} }], connections: {} });
    await page.goto(`/workflow/${workflow.id}`);
    await expect(node(page, 'Start')).toBeVisible({ timeout: 30_000 });
    await page.getByTestId('workflow-menu').click();
    await page.getByTestId('workflow-menu-item-delete').click();
    const message = page.getByTestId('confirm-message');
    await expect(message).toBeVisible();
    const dialog = page.getByRole('dialog');
    const [text, frame] = await Promise.all([box(message), box(dialog)]);
    expect(text.x + text.width).toBeLessThanOrEqual(frame.x + frame.width);
    expect(await notClipped(message)).toBe(true);
    const confirm = page.getByTestId('confirm-button');
    // Filled dark red (Mantine red 7, not the pale primary shade), enabled: a clear call to action.
    await expect(confirm).toHaveCSS('background-color', 'rgb(240, 62, 62)');
    await expect(confirm).toHaveCSS('color', 'rgb(255, 255, 255)');
    await expect(confirm).toBeEnabled();
    await page.screenshot({ path: `/tmp/editor-delete-confirm-${size.width}.png` });
    await page.getByTestId('cancel-button').click();

    const sidebar = page.getByTestId('main-sidebar');
    const toggle = page.getByTestId('main-sidebar-toggle');
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(sidebar.getByText('Credentials', { exact: true })).toBeHidden();
    await toggle.click();
    await expect(sidebar.getByText('Credentials', { exact: true })).toBeVisible();
    await expect.poll(async () => (await box(sidebar)).width).toBeGreaterThanOrEqual(180);
    await page.screenshot({ path: `/tmp/editor-sidebar-expanded-${size.width}.png` });
    // Remembered across visits.
    await page.reload();
    await expect(page.getByTestId('main-sidebar-toggle')).toHaveAttribute('aria-expanded', 'true');
    await expect(sidebar.getByText('Executions', { exact: true })).toBeVisible();
    await page.getByTestId('main-sidebar-toggle').click();
    await expect(sidebar.getByText('Executions', { exact: true })).toBeHidden();
    await expect.poll(async () => (await box(sidebar)).width).toBeLessThan(80);

    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByTestId('main-sidebar-help').click();
    await page.getByText('About Flowmill').click();
    const id = page.getByTestId('about-instance-id');
    await expect(id).toBeVisible();
    const settings = (await (await page.request.get('/rest/settings')).json()) as { data: { instanceId: string } };
    await expect(id).toHaveText(settings.data.instanceId);
    expect(await notClipped(id)).toBe(true);
    await page.getByTestId('about-copy-instance-id').click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(settings.data.instanceId);
    await page.screenshot({ path: `/tmp/editor-about-${size.width}.png` });
  });
}
