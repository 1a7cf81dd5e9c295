import { expect, test, type Page } from '@playwright/test';
import { node, signIn } from '../support/editor';

// The built-in template library, end to end against the api's own templates host: search and
// filters kept in the URL, the collections carousel, the endless list, a template's page with
// its preview frame, importing it into the canvas and running it, a collection, and the
// warning when the host cannot be reached.

const cards = (page: Page) => page.getByTestId('template-card');

async function shoot(page: Page, name: string) {
  for (const width of [1280, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/templates-${name}-${width}.png` });
  }
}

test.describe('template library', () => {
  // Each test walks through several screens on a loaded machine.
  test.describe.configure({ timeout: 60_000 });

  test.beforeEach(async ({ page }) => {
    await signIn(page);
  });

  test('search and category filter live in the URL, Back restores them', async ({ page }) => {
    // The sidebar's Workflows menu leads to the library.
    await page.goto('/workflow');
    await page.getByTestId('workflow-menu').click();
    await page.getByTestId('workflow-menu-item-newFromTemplate').click();
    await expect(page).toHaveURL(/\/templates\/$/);
    await expect(page.getByRole('heading', { name: 'Workflow templates' })).toBeVisible();
    const total = Number(await page.getByTestId('templates-total').textContent());
    expect(total).toBeGreaterThanOrEqual(40);
    await expect(cards(page)).toHaveCount(10);
    // 14 categories: 12 shown and '+ 2 more'.
    await expect(page.getByTestId('category-option')).toHaveCount(12);
    await expect(page.getByTestId('category-more')).toHaveText('+ 2 more');
    await shoot(page, 'search');

    await page.getByTestId('templates-search-input').fill('duplicate');
    await expect(page).toHaveURL(/\/templates\/\?search=duplicate$/);
    await expect(cards(page).first()).toContainText('Remove duplicate contacts');
    const found = Number(await page.getByTestId('templates-total').textContent());
    expect(found).toBeLessThan(total);

    await page.getByRole('checkbox', { name: 'Operations' }).click();
    await expect(page.getByRole('checkbox', { name: 'Operations' })).toBeChecked();
    await expect(page).toHaveURL(/search=duplicate&categories=\d+$/);
    await expect(cards(page)).toHaveCount(1);
    await expect(cards(page).first()).toContainText('Deduplicate events with Item Lists');

    await page.goBack();
    await expect(page).toHaveURL(/\/templates\/\?search=duplicate$/);
    await expect(page.getByTestId('templates-search-input')).toHaveValue('duplicate');
    await expect(page.getByRole('checkbox', { name: 'All Categories' })).toBeChecked();
    await expect(page.getByRole('checkbox', { name: 'Operations' })).not.toBeChecked();
    await expect(page.getByTestId('templates-total')).toHaveText(String(found));

    await page.goBack();
    await expect(page).toHaveURL(/\/templates\/$/);
    await expect(page.getByTestId('templates-search-input')).toHaveValue('');
    await expect(page.getByTestId('templates-total')).toHaveText(String(total));

    await page.getByTestId('templates-search-input').fill('no template is called this');
    await expect(page.getByTestId('templates-no-results')).toHaveText('Nothing found. Try adjusting your search to see more.');
    await page.getByTestId('templates-search-clear').click();
    await expect(page).toHaveURL(/\/templates\/$/);
    await expect(cards(page)).toHaveCount(10);

    // Categories named in the URL come first in the filter.
    await page.goto('/templates/?categories=14');
    await expect(page.getByTestId('category-option').first()).toHaveAttribute('data-category-id', '14');
    await expect(page.getByTestId('category-option').first()).toBeChecked();
    await page.getByTestId('category-more').click();
    await expect(page.getByTestId('category-option')).toHaveCount(14);
  });

  test('the carousel scrolls by two cards and the list loads to its end', async ({ page }) => {
    await page.goto('/templates/');
    const track = page.getByTestId('carousel-track');
    await expect(page.getByTestId('collection-card').first()).toBeVisible();
    // Four cards in view, eight collections: scrolling right by two cards twice reaches the end.
    const cardWidth = await page.getByTestId('collection-card').first().evaluate((el) => el.getBoundingClientRect().width);
    await expect(page.getByTestId('carousel-left')).toBeDisabled();
    await page.getByTestId('carousel-right').click();
    await expect.poll(() => track.evaluate((el) => el.scrollLeft)).toBeGreaterThanOrEqual(2 * cardWidth);
    await expect(page.getByTestId('carousel-left')).toBeEnabled();
    await page.getByTestId('carousel-right').click();
    await expect(page.getByTestId('carousel-right')).toBeDisabled();
    await page.getByTestId('carousel-left').click();
    await page.getByTestId('carousel-left').click();
    await expect.poll(() => track.evaluate((el) => el.scrollLeft)).toBe(0);
    await expect(page.getByTestId('carousel-left')).toBeDisabled();

    const total = Number(await page.getByTestId('templates-total').textContent());
    await expect(cards(page)).toHaveCount(10);
    await expect(page.getByTestId('templates-end')).toHaveCount(0);
    for (let loaded = 10; loaded < total; loaded = await cards(page).count()) {
      await cards(page).last().scrollIntoViewIfNeeded();
      await expect.poll(() => cards(page).count()).toBeGreaterThan(loaded);
    }
    await expect(cards(page)).toHaveCount(total);
    await expect(page.getByTestId('templates-end')).toBeVisible();
  });

  test('a template page previews the workflow; Use this workflow opens it unsaved on the canvas and it runs', async ({ page }) => {
    test.slow();
    await page.goto('/templates/?search=hello%20world');
    await cards(page).filter({ hasText: 'Hello world with the Code node' }).click();
    await expect(page).toHaveURL(/\/templates\/1$/);
    await expect(page.getByTestId('template-name')).toHaveText('Hello world with the Code node');
    const preview = page.frameLocator('[data-test-id="template-preview-frame"]');
    await expect(preview.locator('[data-test-id="canvas-node"][data-name="Say hello"]')).toBeVisible();
    await expect(preview.locator('[data-test-id="canvas-node"][data-name="Build the message"]')).toBeVisible();
    await expect(page.getByTestId('template-preview')).toHaveAttribute('data-state', 'ready');
    // Opening a node in the preview fills the window with the frame until it is closed.
    await preview.locator('[data-test-id="canvas-node"][data-name="Say hello"] [class*="nodeCard"]').dblclick();
    await expect(preview.getByTestId('ndv')).toBeVisible();
    await expect(page.getByTestId('template-preview')).toHaveAttribute('data-ndv-open', 'true');
    await preview.getByTestId('back-to-canvas').click();
    await expect(page.getByTestId('template-preview')).not.toHaveAttribute('data-ndv-open');
    await expect(page.getByTestId('template-description')).toContainText('Manual Trigger');
    await expect(page.getByTestId('template-details-category').first()).toBeVisible();
    await expect(page.getByTestId('template-details')).toContainText('by flowmill');
    await shoot(page, 'detail');

    await page.getByTestId('use-template-button').click();
    await expect(page).toHaveURL(/\/workflow$/);
    await expect(node(page, 'Say hello')).toBeVisible();
    await expect(node(page, 'Build the message')).toBeVisible();
    await expect(page.getByTestId('workflow-save-button')).toHaveAttribute('data-state', 'unsaved');
    await expect(page.locator('body')).toHaveAttribute('data-push-connected', 'true');
    await shoot(page, 'imported');
    await page.getByTestId('execute-workflow-button').click();
    // The first Code run of a fresh instance builds its JavaScript runtime: on a loaded machine
    // that can take longer than the default wait.
    await expect(node(page, 'Build the message')).toHaveAttribute('data-status', 'success', { timeout: 25_000 });
  });

  test('a collection lists its workflows; an unknown id shows not found; a failed import opens a new workflow', async ({ page }) => {
    await page.goto('/templates/');
    await page.getByTestId('collection-card').filter({ hasText: 'Error handling' }).click();
    await expect(page).toHaveURL(/\/collections\/\d+$/);
    await expect(page.getByTestId('collection-name')).toHaveText('Error handling');
    await expect(page.getByTestId('collection-workflows').getByTestId('template-card')).toHaveCount(4);
    await expect(page.getByTestId('template-details')).toBeVisible();
    await shoot(page, 'collection');

    // Ctrl-click opens the template in a new tab; a plain click here.
    const [tab] = await Promise.all([page.context().waitForEvent('page'), cards(page).first().click({ modifiers: ['Control'] })]);
    await expect(tab).toHaveURL(/\/templates\/\d+$/);
    await tab.close();
    await cards(page).first().hover();
    await cards(page).first().getByTestId('use-workflow-button').click();
    await expect(page).toHaveURL(/\/workflow$/);
    await expect(node(page, 'Error Trigger')).toBeVisible();

    await page.goto('/templates/9999');
    await expect(page.getByTestId('templates-not-found')).toContainText('Template could not be found');
    await page.goto('/collections/9999');
    await expect(page.getByTestId('templates-not-found')).toContainText('Collection could not be found');
    await shoot(page, 'not-found');

    await page.goto('/workflows/templates/9999');
    await expect(page.getByText("Couldn't import workflow")).toBeVisible();
    await expect(page).toHaveURL(/\/workflow$/);
    await expect(node(page, 'Start')).toBeVisible();
  });

  test('an unreachable templates host shows the connection warning', async ({ page }) => {
    await page.route('**/templates-host/**', (route) => route.abort('connectionrefused'));
    await page.goto('/templates/');
    await expect(page.getByTestId('templates-connection-warning')).toHaveText(
      '⚠️ There was a problem fetching workflow templates. Check your internet connection.',
    );
    await shoot(page, 'connection-warning');
  });
});
