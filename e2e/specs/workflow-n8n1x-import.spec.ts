import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { edge, node, openNewWorkflow, signIn } from '../support/editor';

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

const ndv = (page: Page) => page.getByTestId('ndv');
const output = (page: Page) => ndv(page).getByTestId('output-panel');

// An n8n 1.x export (Manual Trigger, Code 2, If 2, Edit Fields 3.4, Switch 3, Merge 3), the one
// the Go test pkg/cli TestN8n1xExports runs to n8n's outputs.
const EXPORT = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../../pkg/cli/testdata/n8n1x/workflows/ticket-routing.json'));

async function openNode(page: Page, name: string): Promise<void> {
  await node(page, name).locator('[class*="nodeCard"]').dblclick();
  await expect(ndv(page)).toBeVisible();
}

test('an n8n 1.x export imported from a file shows no node issues and runs to its outputs', async ({ page }) => {
  test.setTimeout(90_000);
  await openNewWorkflow(page);
  const chooser = page.waitForEvent('filechooser');
  await page.getByTestId('workflow-menu').click();
  await page.getByTestId('workflow-menu-item-importFile').click();
  await (await chooser).setFiles({ name: 'ticket-routing.json', mimeType: 'application/json', buffer: EXPORT });
  for (const name of ['When clicking ‘Test workflow’', 'Tickets', 'Is high?', 'Escalate', 'Route by team', 'Combine', 'Web backlog']) {
    await expect(node(page, name)).toHaveCount(1);
  }
  await expect(edge(page, 'Route by team', 'Web backlog')).toHaveCount(1);
  await expect(page.getByTestId('toast').filter({ hasText: 'Could not add' })).toHaveCount(0);
  // The file has no Start, so the fresh one stays; the run starts at the Manual Trigger.
  await expect(node(page, 'Start')).toHaveCount(1);
  await expect(page.getByTestId('node-issues')).toHaveCount(0);

  await page.getByTestId('execute-workflow-button').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Workflow executed successfully' })).toBeVisible();
  await expect(page.getByTestId('node-issues')).toHaveCount(0);

  await openNode(page, 'Combine');
  await expect(output(page).getByTestId('ndv-items-count')).toHaveText('3 items');
  const table = output(page).getByTestId('ndv-data-table');
  await expect(table).toContainText('lead-core');
  await expect(table).toContainText('lead-web');
  await expect(table).toContainText('medium');
  await ndv(page).getByTestId('back-to-canvas').click();

  await openNode(page, 'Web backlog');
  await expect(output(page).getByTestId('ndv-items-count')).toHaveText('1 item');
  await expect(output(page).getByTestId('ndv-data-table')).toContainText('low');
});
