import { expect, test, type Page } from '@playwright/test';
import { createWorkflow, node, signIn, uniqueName } from '../support/editor';

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

const ndv = (page: Page) => page.getByTestId('ndv');
const toast = (page: Page, text: string) => page.getByTestId('toast').filter({ hasText: text });

async function openNode(page: Page, name: string): Promise<void> {
  await node(page, name).locator('[class*="nodeCard"]').dblclick();
  await expect(ndv(page)).toBeVisible();
  await expect(ndv(page).getByTestId('node-title')).toHaveText(name);
}

async function closeNode(page: Page): Promise<void> {
  await ndv(page).getByTestId('back-to-canvas').click();
  await expect(ndv(page)).toBeHidden();
}

async function shots(page: Page, name: string): Promise<void> {
  for (const width of [1440, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `/tmp/switch-merge-${name}-${width}.png` });
  }
}

test('runs sample customers through Switch 2 and Merge 3 and shows their parameters', async ({ page }) => {
  test.setTimeout(90_000);
  const at = (x: number, y: number) => [x, y];
  const workflow = await createWorkflow(page.request, {
    name: uniqueName('Customers'),
    nodes: [
      { name: 'Start', type: 'n8n-nodes-base.start', typeVersion: 1, position: at(0, 200), parameters: {} },
      { name: 'Customers', type: 'n8n-nodes-base.n8nTrainingCustomerDatastore', typeVersion: 1, position: at(220, 200), parameters: { operation: 'getAllPeople', returnAll: true } },
      {
        name: 'By Country', type: 'n8n-nodes-base.switch', typeVersion: 2, position: at(440, 200),
        parameters: { dataType: 'string', value1: '={{ $json.country }}', rules: { rules: [{ value2: 'US', outputKey: 'US' }, { value2: 'UK', outputKey: 'UK' }] } },
      },
      { name: 'Merge', type: 'n8n-nodes-base.merge', typeVersion: 3, position: at(700, 200), parameters: { mode: 'append' } },
      { name: 'Test Data', type: 'n8n-nodes-base.debugHelper', typeVersion: 1, position: at(440, 440), parameters: { category: 'randomData', randomDataSeed: 'demo', randomDataCount: 4 } },
    ],
    connections: {
      Start: { main: [[{ node: 'Customers', type: 'main', index: 0 }, { node: 'Test Data', type: 'main', index: 0 }]] },
      Customers: { main: [[{ node: 'By Country', type: 'main', index: 0 }]] },
      'By Country': { main: [[{ node: 'Merge', type: 'main', index: 0 }], [{ node: 'Merge', type: 'main', index: 1 }]] },
    },
  });
  await page.goto(`/workflow/${workflow.id}`);
  await expect(node(page, 'Merge')).toBeVisible();
  await expect(page.locator('body')).toHaveAttribute('data-push-connected', 'true');
  await page.getByTestId('execute-workflow-button').click();
  await expect(toast(page, 'Workflow executed successfully')).toBeVisible();

  // Two US customers and one UK customer reach the Merge, appended in input order.
  await openNode(page, 'Merge');
  await expect(ndv(page).getByText('Number of Inputs')).toBeVisible();
  await expect(ndv(page).getByTestId('output-panel').getByTestId('ndv-items-count')).toHaveText('3 items');
  await shots(page, 'merge');
  await closeNode(page);

  await openNode(page, 'Test Data');
  await expect(ndv(page).getByText('Number of Items to Generate')).toBeVisible();
  await expect(ndv(page).getByTestId('output-panel').getByTestId('ndv-items-count')).toHaveText('4 items');
  await shots(page, 'debughelper');
  await closeNode(page);

  await openNode(page, 'By Country');
  await expect(ndv(page).getByText('Routing Rules')).toBeVisible();
  await shots(page, 'switch');
});

test('Switch 3 shows an output per rule plus the fallback, Merge 3 an input per numberInputs', async ({ page }) => {
  const at = (x: number, y: number) => [x, y];
  const rule = (value: string) => ({
    conditions: {
      options: { caseSensitive: true, leftValue: '', typeValidation: 'strict' },
      conditions: [{ leftValue: '={{ $json.country }}', rightValue: value, operator: { type: 'string', operation: 'equals' } }],
      combinator: 'and',
    },
  });
  const workflow = await createWorkflow(page.request, {
    name: uniqueName('Endpoints'),
    settings: { executionOrder: 'v1' },
    nodes: [
      { name: 'Start', type: 'n8n-nodes-base.start', typeVersion: 1, position: at(0, 200), parameters: {} },
      {
        name: 'Route', type: 'n8n-nodes-base.switch', typeVersion: 3, position: at(240, 200),
        parameters: { rules: { values: [rule('US'), { ...rule('UK'), renameOutput: true, outputKey: 'UK' }] }, options: { fallbackOutput: 'extra' } },
      },
      { name: 'Merge', type: 'n8n-nodes-base.merge', typeVersion: 3, position: at(520, 200), parameters: { numberInputs: 3 } },
    ],
    connections: {
      Start: { main: [[{ node: 'Route', type: 'main', index: 0 }]] },
      Route: { main: [[{ node: 'Merge', type: 'main', index: 0 }], [{ node: 'Merge', type: 'main', index: 1 }], [{ node: 'Merge', type: 'main', index: 2 }]] },
    },
  });
  await page.goto(`/workflow/${workflow.id}`);
  const route = node(page, 'Route');
  await expect(route).toBeVisible();
  await expect(route.locator('[data-handleid^="out-"]')).toHaveCount(3);
  await expect(route.getByTestId('canvas-output-label')).toHaveText(['0', 'UK', 'Fallback']);
  await expect(node(page, 'Merge').locator('[data-handleid^="in-"]')).toHaveCount(3);
  await shots(page, 'endpoints');

  // A third rule adds an output; the connections stay where they were.
  await openNode(page, 'Route');
  await ndv(page).getByRole('button', { name: 'Add Routing Rule' }).click();
  await closeNode(page);
  await expect(route.locator('[data-handleid^="out-"]')).toHaveCount(4);
  await expect(route.getByTestId('canvas-output-label')).toHaveText(['0', 'UK', '2', 'Fallback']);
  await expect(page.locator('[data-test-id="canvas-edge"][data-source="Route"][data-target="Merge"]')).toHaveCount(3);
});
