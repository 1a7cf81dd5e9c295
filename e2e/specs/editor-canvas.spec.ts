import { expect, test, type Locator, type Page } from '@playwright/test';
import { createWorkflow, node, openNewWorkflow, signIn, uniqueName } from '../support/editor';

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

/** Pastes text as a Ctrl+V on the canvas would. */
async function paste(page: Page, text: string): Promise<void> {
  await page.evaluate((value) => {
    const data = new DataTransfer();
    data.setData('text/plain', value);
    document.body.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true }));
  }, text);
}

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
  await expect(node(page, 'Step 99')).toBeVisible();
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
  await expect(node(page, 'Again')).toBeVisible();
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
  await expect(node(page, 'Far')).toBeVisible();
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
