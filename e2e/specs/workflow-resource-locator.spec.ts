import { expect, test } from '@playwright/test';
import { createWorkflow, getWorkflow, node, signIn, uniqueName } from '../support/editor';

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

test('Execute Workflow 1.2 picks its workflow from the list, switches to By ID and saves n8n 1.x values', async ({ page }) => {
  test.setTimeout(90_000);
  const targetName = uniqueName('Sub orders');
  const target = await createWorkflow(page.request, { name: targetName, nodes: [], connections: {} });
  const caller = await createWorkflow(page.request, {
    name: uniqueName('Caller'),
    nodes: [
      {
        name: 'Execute Workflow',
        type: 'n8n-nodes-base.executeWorkflow',
        typeVersion: 1.2,
        position: [400, 300],
        parameters: { workflowId: { __rl: true, mode: 'list', value: '' }, workflowInputs: { mappingMode: 'defineBelow', value: { id: '={{ $json.id }}' } }, options: {} },
      },
    ],
    connections: {},
  });
  await page.goto(`/workflow/${caller.id}`);
  await node(page, 'Execute Workflow').locator('[class*="nodeCard"]').dblclick();
  const ndv = page.getByTestId('ndv');
  await expect(ndv).toBeVisible();

  const locator = ndv.getByTestId('parameter-input-workflowId');
  await locator.getByTestId('rlc-list').click();
  await locator.getByTestId('rlc-list').fill(targetName.slice(0, 14));
  await page.getByRole('option', { name: targetName, exact: true }).click();
  await expect(locator.getByTestId('rlc-open')).toHaveAttribute('href', new RegExp(`/workflow/${target.id}$`));
  await expect(ndv.getByTestId('resource-mapper').getByTestId('mapping-field')).toHaveCount(1);
  await page.screenshot({ path: '/tmp/rlocator-list.png' });

  await locator.getByTestId('rlc-mode-selector').click();
  await page.getByRole('option', { name: 'By ID', exact: true }).click();
  await expect(locator.getByTestId('rlc-input')).toHaveValue(target.id);
  await expect(locator.getByTestId('rlc-hint')).toHaveText('Can be found in the URL of the workflow');
  await page.screenshot({ path: '/tmp/rlocator-id.png' });

  await ndv.getByTestId('back-to-canvas').click();
  await page.keyboard.press('Control+s');
  await expect(page.getByTestId('workflow-save-button')).toHaveAttribute('data-state', 'saved');
  const saved = await getWorkflow(page.request, caller.id);
  const parameters = saved.nodes.find((entry) => entry.name === 'Execute Workflow')?.parameters;
  expect(parameters?.workflowId).toEqual({ __rl: true, mode: 'id', value: target.id });
  expect(parameters?.workflowInputs).toEqual({ mappingMode: 'defineBelow', value: { id: '={{ $json.id }}' } });
});
