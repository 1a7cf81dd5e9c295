import { expect, test } from '@playwright/test';

test('the app loads its settings, opens the push connection and shows no errors', async ({ page }) => {
  const consoleErrors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') consoleErrors.push(msg.text());
  });
  page.on('pageerror', (err) => consoleErrors.push(err.message));

  const settings = page.waitForResponse((res) => res.url().endsWith('/rest/settings'));
  await page.goto('/');
  const res = await settings;
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { data: { userManagement: { showSetupOnFirstLoad: boolean } } };

  // A fresh instance sends the visitor to owner setup; once other specs skipped it, to the editor.
  if (body.data.userManagement.showSetupOnFirstLoad) {
    await expect(page).toHaveURL(/\/setup$/);
    await expect(page.getByTestId('main-sidebar')).toHaveCount(0);
  } else {
    await expect(page).toHaveURL(/\/workflow$/);
    await expect(page.getByTestId('main-sidebar')).toBeVisible();
  }
  await expect(page.locator('body')).toHaveAttribute('data-push-connected', 'true');
  await expect(page.getByTestId('toast')).toHaveCount(0);
  await page.screenshot({ path: 'test-results/smoke-start.png', fullPage: true });
  expect(consoleErrors).toEqual([]);
});

test('after skipping owner setup, the editor frame loads and an unknown path shows the not-found view', async ({
  page,
}) => {
  // The browser context signs in as the default owner, as the editor does on load.
  expect((await page.request.get('/rest/login')).status()).toBe(200);
  expect((await page.request.post('/rest/owner/skip-setup')).status()).toBe(200);
  await page.goto('/');
  await expect(page).toHaveURL(/\/workflow$/);
  await expect(page.getByTestId('main-sidebar')).toBeVisible();
  await page.screenshot({ path: 'test-results/frame.png', fullPage: true });

  await page.goto('/no/such/page');
  await expect(page.getByTestId('not-found-code')).toHaveText('404');
  await expect(page.getByRole('heading', { name: "Oops, couldn't find that" })).toBeVisible();
  await page.screenshot({ path: 'test-results/not-found.png', fullPage: true });
  await page.getByRole('link', { name: 'Go back' }).click();
  await expect(page).toHaveURL(/\/workflow$/);
});

test('the push stream delivers a worker message to the page', async ({ page }) => {
  const pushRequest = page.waitForRequest((req) => req.url().includes('/rest/push?sessionId='));
  await page.goto('/');
  const sessionId = new URL((await pushRequest).url()).searchParams.get('sessionId');
  expect(sessionId).toBeTruthy();
  await expect(page.locator('body')).toHaveAttribute('data-push-connected', 'true');
  const logged = page.waitForEvent('console', (msg) => msg.text().includes('pong from-e2e'));
  const res = await page.request.post('/rest/debug/ping', {
    data: { message: 'from-e2e' },
    headers: { sessionid: sessionId! },
  });
  expect(res.status()).toBe(200);
  await logged;
});
