import { expect, test, type Page } from '@playwright/test';
import { addAfter, node, openNewWorkflow, signIn } from '../support/editor';

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

const ndv = (page: Page) => page.getByTestId('ndv');

async function shoot(page: Page, name: string): Promise<void> {
  for (const width of [1440, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `/tmp/nodesB-shots/${name}-${width}.png` });
  }
}

test('HTML, HTML Extract and iCalendar show their parameters in the panel', async ({ page }) => {
  test.setTimeout(90_000);
  await openNewWorkflow(page);

  await addAfter(page, 'Start', 'html', 'HTML');
  await node(page, 'HTML').locator('[class*="nodeCard"]').dblclick();
  await expect(ndv(page)).toBeVisible();
  const template = ndv(page).getByTestId('parameter-input-html');
  await expect(template).toBeVisible();
  await expect(template.locator('textarea')).toHaveValue(/<h1>This is an H1 heading<\/h1>/);
  await shoot(page, 'html-template');
  await ndv(page).getByTestId('back-to-canvas').click();
  await expect(ndv(page)).toBeHidden();

  await addAfter(page, 'HTML', 'icalendar', 'iCalendar');
  await node(page, 'iCalendar').locator('[class*="nodeCard"]').dblclick();
  await expect(ndv(page)).toBeVisible();
  await expect(ndv(page).getByTestId('parameter-input-title')).toBeVisible();
  await expect(ndv(page).getByTestId('parameter-input-allDay')).toBeVisible();
  await shoot(page, 'icalendar');
});
