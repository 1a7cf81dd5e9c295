import { expect, test, type Page } from '@playwright/test';
import { addAfter, connect, edge, edgeActions, getWorkflow, links, node, openNewWorkflow, pickInCreator, select, signIn, workflowIdOf } from '../support/editor';

test.beforeEach(async ({ page }) => {
  await signIn(page);
  await openNewWorkflow(page);
});

test('builds a workflow from the node creator with the mouse', async ({ page }) => {
  await addAfter(page, 'Start', 'if', 'If');
  await expect(node(page, 'If')).toBeVisible();
  await expect(edge(page, 'Start', 'If')).toHaveCount(1);
  // The IF node's "false" output gets its own node, offset below the "true" branch.
  await addAfter(page, 'If', 'edit fields', 'Edit Fields \\(Set\\)', 1);
  await expect(edge(page, 'If', 'Edit Fields')).toHaveAttribute('data-source-index', '1');
  const ifBox = await node(page, 'If').boundingBox();
  const setBox = await node(page, 'Edit Fields').boundingBox();
  expect(setBox!.y).toBeGreaterThan(ifBox!.y);

  // Categories: the first is expanded at start; subcategories open on click; drag onto the canvas.
  await page.getByTestId('node-creator-plus-button').click();
  const creator = page.getByTestId('node-creator');
  await expect(creator.getByTestId('node-creator-category').first()).toHaveAttribute('aria-expanded', 'true');
  await creator.getByTestId('node-creator-subcategory').filter({ hasText: 'Flow' }).click();
  await expect(creator.getByTestId('node-creator-item-name').filter({ hasText: /^Merge$/ })).toBeVisible();
  await creator.getByText('Trigger', { exact: true }).click();
  await expect(creator.getByTestId('node-creator-item-name').filter({ hasText: /^Merge$/ })).toHaveCount(0);
  await page.getByTestId('node-creator-search-bar').fill('nothing matches this');
  await expect(page.getByTestId('node-creator-no-results')).toContainText('HTTP Request');
  await creator.getByText('All', { exact: true }).click();
  await page.getByTestId('node-creator-search-bar').fill('no operation');
  await creator.getByTestId('node-creator-item').first().dragTo(page.getByTestId('node-view'), { targetPosition: { x: 300, y: 650 } });
  await expect(node(page, 'No Operation, do nothing')).toBeVisible();
  await page.screenshot({ path: 'test-results/editor-built-with-mouse.png' });
});

async function closeAddedNode(page: Page): Promise<void> {
  await expect(page.getByTestId('ndv')).toBeVisible();
  await page.getByTestId('back-to-canvas').click();
  await expect(page.getByTestId('ndv')).toBeHidden();
}

test('builds a workflow with the keyboard', async ({ page }) => {
  await select(page, 'Start');
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('node-creator')).toBeVisible();
  await page.keyboard.type('edit fields');
  await page.keyboard.press('Enter');
  await expect(node(page, 'Edit Fields')).toBeVisible();
  await expect(edge(page, 'Start', 'Edit Fields')).toHaveCount(1);
  // The added node's details open (as in n8n); back on the canvas it stays selected, so the next one follows it.
  await closeAddedNode(page);
  await page.keyboard.press('Tab');
  await page.keyboard.type('No Operation');
  await page.keyboard.press('Enter');
  await expect(edge(page, 'Edit Fields', 'No Operation, do nothing')).toHaveCount(1);
  await closeAddedNode(page);
  // Tab closes the creator again; arrow keys walk the connections.
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('node-creator')).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('node-creator')).toBeHidden();
  await page.keyboard.press('ArrowLeft');
  await expect(node(page, 'Edit Fields').locator('[data-selected]')).toHaveCount(1);
  await page.waitForTimeout(150);
  await page.keyboard.press('ArrowLeft');
  await expect(node(page, 'Start').locator('[data-selected]')).toHaveCount(1);
  await page.waitForTimeout(150);
  await page.keyboard.press('Shift+ArrowRight');
  await expect(page.locator('[data-test-id="canvas-node"] [data-selected]')).toHaveCount(3);
});

test('connects, inserts on a connection, deletes a middle node and keeps neighbours connected', async ({ page }) => {
  await addAfter(page, 'Start', 'edit fields', 'Edit Fields \\(Set\\)');
  // A click on the background clears the selection and sets where the next free node goes.
  await page.getByTestId('node-view').click({ position: { x: 700, y: 650 } });
  await page.getByTestId('node-creator-plus-button').click();
  await pickInCreator(page, 'no operation', 'No Operation, do nothing');
  const noop = 'No Operation, do nothing';
  await expect(edge(page, 'Edit Fields', noop)).toHaveCount(0);
  await connect(page, 'Edit Fields', noop);
  await expect(edge(page, 'Edit Fields', noop)).toHaveCount(1);
  // A second identical connection is refused.
  await connect(page, 'Edit Fields', noop);
  await expect(edge(page, 'Edit Fields', noop)).toHaveCount(1);

  // Hovering a connection shows its actions; add splits it through the new node.
  await edge(page, 'Start', 'Edit Fields').hover({ force: true });
  await edgeActions(page, 'Start', 'Edit Fields').getByTestId('edge-add-button').click();
  await pickInCreator(page, 'if', 'If');
  await expect(edge(page, 'Start', 'If')).toHaveCount(1);
  await expect(edge(page, 'If', 'Edit Fields')).toHaveCount(1);
  await expect(edge(page, 'Start', 'Edit Fields')).toHaveCount(0);

  // Deleting the middle node reconnects its neighbours.
  await select(page, 'Edit Fields');
  await page.keyboard.press('Delete');
  await expect(node(page, 'Edit Fields')).toHaveCount(0);
  await expect(edge(page, 'If', noop)).toHaveCount(1);

  // Connection delete from the hover actions.
  await edge(page, 'If', noop).hover({ force: true });
  await edgeActions(page, 'If', noop).getByTestId('edge-delete-button').click();
  await expect(edge(page, 'If', noop)).toHaveCount(0);
  await page.screenshot({ path: 'test-results/editor-connections.png' });
});

test('renames with F2, duplicates, disables with d, and undoes and redoes each step', async ({ page }) => {
  await addAfter(page, 'Start', 'edit fields', 'Edit Fields \\(Set\\)');
  await select(page, 'Edit Fields');
  await page.keyboard.press('F2');
  await page.getByTestId('node-rename-input').fill('  Prepare data  ');
  await page.keyboard.press('Enter');
  await expect(node(page, 'Prepare data')).toBeVisible();
  await expect(edge(page, 'Start', 'Prepare data')).toHaveCount(1);

  await node(page, 'Prepare data').hover();
  await node(page, 'Prepare data').getByTestId('node-toolbar-duplicate').click();
  await expect(node(page, 'Prepare data1')).toBeVisible();
  const original = await node(page, 'Prepare data').boundingBox();
  const copy = await node(page, 'Prepare data1').boundingBox();
  expect(Math.round(copy!.x)).toBe(Math.round(original!.x));
  expect(copy!.y).toBeGreaterThan(original!.y);

  await select(page, 'Prepare data');
  await page.keyboard.press('d');
  await expect(node(page, 'Prepare data')).toHaveAttribute('data-disabled', 'true');
  await expect(node(page, 'Prepare data')).toContainText('(Deactivated)');

  await page.keyboard.press('Control+z');
  await expect(node(page, 'Prepare data')).not.toHaveAttribute('data-disabled', 'true');
  await page.keyboard.press('Control+z');
  await expect(node(page, 'Prepare data1')).toHaveCount(0);
  await page.keyboard.press('Control+z');
  await expect(node(page, 'Edit Fields')).toBeVisible();
  await expect(edge(page, 'Start', 'Edit Fields')).toHaveCount(1);
  await page.keyboard.press('Control+Shift+z');
  await page.keyboard.press('Control+Shift+z');
  await page.keyboard.press('Control+Shift+z');
  await expect(node(page, 'Prepare data')).toHaveAttribute('data-disabled', 'true');
  await expect(node(page, 'Prepare data1')).toBeVisible();

  // The saved document holds the result.
  await page.keyboard.press('Control+s');
  await expect(page).toHaveURL(/\/workflow\/[^/]+\/workflowSave$/);
  const saved = await getWorkflow(page.request, workflowIdOf(page));
  expect(saved.nodes.map((n) => [n.name, n.disabled ?? false])).toEqual([
    ['Start', false],
    ['Prepare data', true],
    ['Prepare data1', false],
  ]);
  expect(links(saved)).toEqual(['Start:0->Prepare data']);
  await page.screenshot({ path: 'test-results/editor-edits.png' });
});

test('adds a sticky note and edits its markdown', async ({ page }) => {
  await page.getByTestId('add-sticky-button').click();
  const sticky = page.getByTestId('sticky-note');
  await expect(sticky.getByRole('heading', { name: "I'm a note" })).toBeVisible();
  await sticky.dblclick();
  await sticky.getByRole('textbox').fill('# Plan\nCall **the API**\n<script>alert(1)</script>');
  await page.getByTestId('node-view').click({ position: { x: 200, y: 700 } });
  await expect(sticky.getByRole('heading', { name: 'Plan' })).toBeVisible();
  await expect(sticky.locator('strong')).toHaveText('the API');
  // Raw HTML is shown as text, never run.
  await expect(sticky).toContainText('<script>alert(1)</script>');
  await page.keyboard.press('Control+z');
  await expect(sticky.getByRole('heading', { name: "I'm a note" })).toBeVisible();
});

test('a node with issues shows a warning and blocks the run', async ({ page }) => {
  await addAfter(page, 'Start', 'http', 'HTTP Request');
  const issues = node(page, 'HTTP Request').getByTestId('node-issues');
  await expect(issues).toBeVisible();
  await issues.hover();
  await expect(page.getByRole('tooltip')).toContainText('Parameter "URL" is required.');
  await page.getByTestId('execute-workflow-button').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Workflow has issues' })).toContainText('HTTP Request: Parameter "URL" is required.');
  await page.screenshot({ path: 'test-results/editor-node-issues.png' });
});

test('zoom buttons and keys step by 1.25, wheel pans, and a pasted workflow URL asks first', async ({ page, context }) => {
  const scale = async () => Number(/scale\(([\d.]+)\)/.exec((await page.locator('.react-flow__viewport').getAttribute('style')) ?? '')?.[1]);
  await page.getByTestId('reset-zoom-button').click();
  await expect.poll(scale).toBe(1);
  await page.getByTestId('zoom-in-button').click();
  await expect.poll(scale).toBeCloseTo(1.25, 5);
  await page.getByTestId('node-view').click({ position: { x: 300, y: 600 } });
  await page.keyboard.press('-');
  await expect.poll(scale).toBeCloseTo(1, 5);
  const before = await page.locator('.react-flow__viewport').getAttribute('style');
  await page.mouse.move(500, 500);
  await page.mouse.wheel(0, 120);
  await expect.poll(async () => page.locator('.react-flow__viewport').getAttribute('style')).not.toBe(before);
  await expect.poll(scale).toBeCloseTo(1, 5);

  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.evaluate(() => {
    const data = new DataTransfer();
    data.setData('text/plain', 'https://example.invalid/flows/workflow.json');
    document.body.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true }));
  });
  await expect(page.getByText('Import the workflow from https://example.invalid/flows/workflow.json?')).toBeVisible();
  await page.getByTestId('cancel-button').click();
  await expect(page.getByTestId('toast')).toHaveCount(0);
});

test('a node type dropped from the creator onto a connection is inserted into it', async ({ page }) => {
  await addAfter(page, 'Start', 'edit fields', 'Edit Fields \\(Set\\)');
  await expect(edge(page, 'Start', 'Edit Fields')).toHaveCount(1);
  await page.getByTestId('node-creator-plus-button').click();
  await page.getByTestId('node-creator-search-bar').fill('no operation');
  const line = edge(page, 'Start', 'Edit Fields');
  const box = await line.boundingBox();
  if (!box) throw new Error('the connection is not drawn');
  await page.getByTestId('node-creator').getByTestId('node-creator-item').first().dragTo(page.getByTestId('node-view'), {
    targetPosition: await page.getByTestId('node-view').evaluate((view, b) => {
      const r = view.getBoundingClientRect();
      return { x: b.x + b.width / 2 - r.left, y: b.y + b.height / 2 - r.top };
    }, box),
  });
  await expect(node(page, 'No Operation, do nothing')).toBeVisible();
  await expect(edge(page, 'Start', 'No Operation, do nothing')).toHaveCount(1);
  await expect(edge(page, 'No Operation, do nothing', 'Edit Fields')).toHaveCount(1);
  await expect(edge(page, 'Start', 'Edit Fields')).toHaveCount(0);
});
