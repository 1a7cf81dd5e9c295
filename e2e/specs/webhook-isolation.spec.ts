import { expect, test, type Page } from '@playwright/test';
import { createWorkflow, signIn, uniqueName } from '../support/editor';

// A member's workflow answers its webhook with an HTML page whose script tries to take over
// whoever opens it: read the cookies, mint an API key (POST /rest/me/api-key) and list the
// workflows. The owner opens it in the browser they are signed in with. The same page served
// from the editor's origin without the webhook headers shows that the script would succeed.

const PAGE = `<!doctype html><html><body><p id="status">script did not run</p><script>
  const status = document.getElementById('status');
  status.textContent = 'script ran; cookie=' + document.cookie;
  fetch('/rest/me/api-key', { method: 'POST', credentials: 'include' })
    .then((r) => r.text()).then((t) => { status.textContent += '; key=' + t; });
  fetch('/rest/workflows', { credentials: 'include' })
    .then((r) => r.status).then((s) => { status.textContent += '; workflows=' + s; });
</script></body></html>`;

const UNSANDBOXED = '/__e2e/unsandboxed-webhook-page.html';

/** Every request the page sends to the REST API, by method and path. */
function restRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (url.pathname.startsWith('/rest/')) seen.push(`${req.method()} ${url.pathname}`);
  });
  return seen;
}

async function apiKeyHint(page: Page): Promise<string | null> {
  const res = await page.request.get('/rest/me/api-key');
  expect(res.status()).toBe(200);
  return ((await res.json()) as { data: { apiKey: string | null } }).data.apiKey;
}

test("a webhook's HTML page runs no script with the editor's origin, even in the owner's browser", async ({ page, context, baseURL }) => {
  await signIn(page);
  // A cookie scripts may read, beside the HttpOnly session cookie.
  await context.addCookies([{ name: 'probe', value: 'visible-to-scripts', url: baseURL! }]);
  const path = uniqueName('promo').replace(/\W+/g, '-');
  const workflow = await createWorkflow(page.request, {
    name: uniqueName('Promo page'),
    nodes: [
      { name: 'Webhook', type: 'n8n-nodes-base.webhook', typeVersion: 1, position: [240, 300], webhookId: path,
        parameters: { path, httpMethod: 'GET', responseMode: 'responseNode' } },
      { name: 'Respond', type: 'n8n-nodes-base.respondToWebhook', typeVersion: 1, position: [460, 300],
        parameters: { respondWith: 'text', responseBody: PAGE,
          options: { responseHeaders: { entries: [{ name: 'content-type', value: 'text/html; charset=utf-8' }] } } } },
    ],
    connections: { Webhook: { main: [[{ node: 'Respond', type: 'main', index: 0 }]] } },
  });
  const activated = await page.request.patch(`/rest/workflows/${workflow.id}`, { data: { active: true } });
  expect(activated.status(), await activated.text()).toBe(200);

  // Without the webhook headers the attack works: the script reads the cookie, mints a key.
  const direct = await page.request.get(`/webhook/${path}`);
  expect(direct.status()).toBe(200);
  await page.route(`**${UNSANDBOXED}`, async (route) => route.fulfill({ contentType: 'text/html', body: await direct.text() }));
  const controlRequests = restRequests(page);
  await page.goto(UNSANDBOXED);
  await expect(page.locator('#status')).toContainText('workflows=200');
  await expect(page.locator('#status')).toContainText('cookie=probe=visible-to-scripts');
  await expect(page.locator('#status')).toContainText('"apiKey":');
  expect(controlRequests).toEqual(expect.arrayContaining(['POST /rest/me/api-key', 'GET /rest/workflows']));
  const keyBefore = await apiKeyHint(page);
  expect(keyBefore).not.toBeNull();

  // Served as a webhook answer, the same page is sandboxed: an opaque origin and no script.
  const victim = await context.newPage();
  const requests = restRequests(victim);
  const consoleMessages: string[] = [];
  victim.on('console', (msg) => consoleMessages.push(msg.text()));
  const answer = await victim.goto(`/webhook/${path}`);
  expect(answer?.status()).toBe(200);
  await expect(victim.locator('#status')).toHaveText('script did not run');
  expect(await victim.evaluate(() => window.origin)).toBe('null');
  // Give a script that did run every chance to be seen: the page has settled, nothing went out.
  await victim.waitForLoadState('networkidle');
  await expect(victim.locator('#status')).toHaveText('script did not run');
  expect(requests).toEqual([]);
  expect(await apiKeyHint(page), 'the owner still has the key they had').toBe(keyBefore);
  await victim.screenshot({ path: 'test-results/webhook-isolation-page.png' });
  expect(consoleMessages.join('\n')).toMatch(/sandboxed|allow-scripts/);
  expect(answer?.headers()['content-security-policy']).toContain('sandbox');
  expect(answer?.headers()['x-content-type-options']).toBe('nosniff');
});
