import { expect, test, type Page } from '@playwright/test';
import { addAfter, createWorkflow, getWorkflow, node, signIn, uniqueName } from '../support/editor';

// Node versions as n8n's editor treats them: a node from a newer n8n (a typeVersion this
// instance lacks) is marked and cannot run; a stored node keeps its version and its parameters;
// a node added from the creator gets the type's latest version.

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

const ndv = (page: Page) => page.getByTestId('ndv');

async function openNode(page: Page, name: string): Promise<void> {
  await node(page, name).locator('[class*="nodeCard"]').dblclick();
  await expect(ndv(page)).toBeVisible();
}

async function closeNode(page: Page): Promise<void> {
  await ndv(page).getByTestId('back-to-canvas').click();
  await expect(ndv(page)).toBeHidden();
}

test('a node version this instance lacks is marked, explained and refused; stored versions are kept', async ({ page }) => {
  const workflow = await createWorkflow(page.request, {
    name: uniqueName('Versions'),
    nodes: [
      { name: 'Start', type: 'n8n-nodes-base.start', typeVersion: 1, position: [240, 300], parameters: {} },
      { name: 'Edit Fields', type: 'n8n-nodes-base.set', typeVersion: 3.5, position: [460, 300], parameters: { mode: 'manual' } },
      { name: 'Old Code', type: 'n8n-nodes-base.code', typeVersion: 1, position: [460, 500], parameters: { jsCode: 'return $input.all();' } },
    ],
    connections: { Start: { main: [[{ node: 'Edit Fields', type: 'main', index: 0 }]] } },
  });
  await page.goto(`/workflow/${workflow.id}`);
  await expect(node(page, 'Edit Fields')).toBeVisible();

  const issues = node(page, 'Edit Fields').getByTestId('node-issues');
  await expect(issues).toBeVisible();
  await issues.hover();
  await expect(page.getByRole('tooltip')).toContainText('Install this node to use it: version 3.5 is not currently installed (this instance has 1, 2, 3, 3.1, 3.2, 3.3, 3.4).');
  await expect(node(page, 'Old Code').getByTestId('node-issues')).toHaveCount(0);
  await page.screenshot({ path: 'test-results/versions-canvas.png' });

  await openNode(page, 'Edit Fields');
  const unknown = ndv(page).getByTestId('node-type-unknown');
  await expect(unknown).toContainText('Install this node to use it');
  await expect(unknown).toContainText('This node is not currently installed. It is either from a newer version of n8n, a custom node, or has an invalid structure.');
  await expect(unknown).toContainText('n8n-nodes-base.set version 3.5 is not known on this instance (known versions: 1, 2, 3, 3.1, 3.2, 3.3, 3.4)');
  await page.screenshot({ path: 'test-results/versions-ndv.png' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(unknown).toBeVisible();
  await page.screenshot({ path: 'test-results/versions-ndv-1280.png' });
  await closeNode(page);

  await page.getByTestId('execute-workflow-button').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Workflow has issues' })).toContainText('Edit Fields: Install this node to use it');

  // The server refuses the same run, naming the type and the versions it knows.
  const stored = await getWorkflow(page.request, workflow.id);
  const refused = await page.request.post('/rest/workflows/run', { data: { workflowData: stored } });
  expect(refused.status()).toBe(422);
  expect(await refused.text()).toContain('The node type \\"n8n-nodes-base.set\\" has no version 3.5 here (known versions: 1, 2, 3, 3.1, 3.2, 3.3, 3.4)');

  // The stored Code node keeps version 1 (no Language choice); one added from the creator is version 2.
  await openNode(page, 'Old Code');
  await expect(ndv(page).getByTestId('parameter-input-jsCode').first()).toBeVisible();
  await expect(ndv(page).getByTestId('parameter-input-language')).toHaveCount(0);
  await closeNode(page);
  await addAfter(page, 'Old Code', 'code', 'Code');
  await openNode(page, 'Code');
  await expect(ndv(page).getByTestId('parameter-input-language')).toBeVisible();
  await closeNode(page);
  await page.getByTestId('workflow-save-button').click();
  await expect(page.getByTestId('workflow-save-button')).toHaveAttribute('data-state', 'saved');
  const saved = await getWorkflow(page.request, workflow.id);
  const versions = Object.fromEntries(saved.nodes.map((n) => [n.name, n.typeVersion]));
  expect(versions).toMatchObject({ 'Edit Fields': 3.5, 'Old Code': 1, Code: 2 });
});
