import { expect, test, type Page } from '@playwright/test';
import { addAfter, getWorkflow, node, openNewWorkflow, signIn, uniqueName, workflowIdOf } from '../support/editor';

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

const ndv = (page: Page) => page.getByTestId('ndv');
const output = (page: Page) => ndv(page).getByTestId('output-panel');

async function shoot(page: Page, name: string): Promise<void> {
  for (const width of [1440, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `/tmp/v17-setif-${name}-${width}.png` });
  }
}

async function openNode(page: Page, name: string): Promise<void> {
  await node(page, name).locator('[class*="nodeCard"]').dblclick();
  await expect(ndv(page)).toBeVisible();
  await expect(ndv(page).getByTestId('node-title')).toHaveText(name);
}

async function closeNode(page: Page): Promise<void> {
  await ndv(page).getByTestId('back-to-canvas').click();
  await expect(ndv(page)).toBeHidden();
}

test('Edit Fields 3.4 assignments and If 2.3 filter conditions are edited in the panel and run', async ({ page }) => {
  test.setTimeout(90_000);
  await openNewWorkflow(page);
  await page.getByTestId('workflow-name-input').click();
  await page.getByTestId('workflow-name-input').fill(uniqueName('Fields'));
  await page.keyboard.press('Enter');

  // Edit Fields: two typed fields through the assignment editor.
  await addAfter(page, 'Start', 'edit fields', 'Edit Fields \\(Set\\)');
  await openNode(page, 'Edit Fields');
  const assignments = ndv(page).getByTestId('assignment-collection-assignments');
  await expect(assignments).toContainText('No fields yet');
  await assignments.getByTestId('assignment-add').click();
  await assignments.getByTestId('assignment-name').nth(0).fill('count');
  await assignments.getByTestId('assignment-type').nth(0).click();
  await page.getByRole('option', { name: 'Number', exact: true }).click();
  await assignments.getByTestId('assignment-value').nth(0).fill('12');
  await assignments.getByTestId('assignment-add').click();
  await assignments.getByTestId('assignment-name').nth(1).fill('label');
  await assignments.getByTestId('assignment-value').nth(1).fill('={{ "n" + 5 }}');
  await expect(assignments.getByTestId('assignment')).toHaveCount(2);
  await shoot(page, 'assignments');
  // Duplicate Item is a node setting (isNodeSetting), shown in the settings tab only.
  await expect(ndv(page).getByTestId('parameter-input-duplicateItem')).toHaveCount(0);
  await ndv(page).getByTestId('ndv-tab-settings').click();
  await expect(ndv(page).getByTestId('node-type-settings').getByTestId('parameter-input-duplicateItem')).toBeVisible();
  await closeNode(page);

  // If: two conditions combined with OR.
  await addAfter(page, 'Edit Fields', 'if', 'If');
  await openNode(page, 'If');
  const conditions = ndv(page).getByTestId('filter-conditions-conditions');
  await conditions.getByTestId('filter-add-condition').click();
  await conditions.getByTestId('filter-left-value').nth(0).fill('={{ $json.count }}');
  await conditions.getByTestId('filter-operator').nth(0).click();
  await page.getByRole('option', { name: 'is greater than', exact: true }).first().click();
  await conditions.getByTestId('filter-right-value').nth(0).fill('10');
  await conditions.getByTestId('filter-add-condition').click();
  await conditions.getByTestId('filter-left-value').nth(1).fill('={{ $json.label }}');
  await conditions.getByTestId('filter-operator').nth(1).click();
  await page.getByRole('option', { name: 'is empty', exact: true }).first().click();
  await expect(conditions.getByTestId('filter-right-value')).toHaveCount(1);
  await conditions.getByTestId('filter-combinator').click();
  await page.getByRole('option', { name: 'OR', exact: true }).click();
  await shoot(page, 'conditions');
  await closeNode(page);

  await page.keyboard.press('Control+s');
  await expect(page).toHaveURL(/\/workflow\/[^/]+/);
  await expect(page.getByTestId('workflow-save-button')).toHaveAttribute('data-state', 'saved');
  const stored = await getWorkflow(page.request, workflowIdOf(page));
  const byName = Object.fromEntries(stored.nodes.map((n) => [n.name, n as typeof n & { typeVersion: number }]));
  expect(byName['Edit Fields']?.typeVersion).toBe(3.4);
  expect(byName['Edit Fields']?.parameters).toMatchObject({
    assignments: { assignments: [{ name: 'count', type: 'number', value: '12' }, { name: 'label', type: 'string', value: '={{ "n" + 5 }}' }] },
  });
  expect(byName.If?.typeVersion).toBe(2.3);
  expect(byName.If?.parameters).toMatchObject({
    conditions: {
      combinator: 'or',
      options: { caseSensitive: true, typeValidation: 'strict' },
      conditions: [
        { leftValue: '={{ $json.count }}', rightValue: 10, operator: { type: 'number', operation: 'gt' } },
        { leftValue: '={{ $json.label }}', operator: { type: 'string', operation: 'empty', singleValue: true } },
      ],
    },
  });

  await page.getByTestId('execute-workflow-button').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Workflow executed successfully' })).toBeVisible();
  await openNode(page, 'If');
  await expect(output(page).getByTestId('branches')).toContainText('True Branch (1 item)');
  await expect(output(page).getByTestId('ndv-data-table')).toContainText('n5');
  await shoot(page, 'if-run');
});
