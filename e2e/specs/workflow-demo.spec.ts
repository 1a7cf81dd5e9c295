import { expect, test } from '@playwright/test';
import { signIn } from '../support/editor';

const HOST = '/__e2e/demo-host.html';

// A host page on the editor's origin frames the demo view and records the frame's messages.
const HOST_HTML = `<!doctype html><html><body>
<iframe id="demo" src="/workflows/demo" style="width:1000px;height:700px;border:0"></iframe>
<script>
  window.received = [];
  window.addEventListener('message', (event) => {
    try { window.received.push(JSON.parse(event.data)); } catch { window.received.push(event.data); }
  });
  window.send = (message) => document.getElementById('demo').contentWindow.postMessage(JSON.stringify(message), '*');
</script></body></html>`;

const WORKFLOW = {
  name: 'Demo',
  nodes: [
    { name: 'Start', type: 'n8n-nodes-base.start', typeVersion: 1, position: [240, 300], parameters: {} },
    { name: 'Set values', type: 'n8n-nodes-base.set', typeVersion: 1, position: [460, 300], parameters: {} },
  ],
  connections: { Start: { main: [[{ node: 'Set values', type: 'main', index: 0 }]] } },
};

test('the demo view talks to its host frame: ready, open workflow, error, node panel', async ({ page }) => {
  await signIn(page);
  await page.route(`**${HOST}`, (route) => route.fulfill({ contentType: 'text/html', body: HOST_HTML }));
  await page.goto(HOST);
  const received = () => page.evaluate(() => (window as unknown as { received: Array<{ command: string; version?: string }> }).received);
  await expect.poll(async () => (await received()).find((m) => m.command === 'n8nReady')?.version).toMatch(/^\d+\.\d+\.\d+/);

  const frame = page.frameLocator('#demo');
  await page.evaluate((workflow) => (window as unknown as { send: (m: unknown) => void }).send({ command: 'openWorkflow', workflow }), WORKFLOW);
  await expect(frame.locator('[data-test-id="canvas-node"][data-name="Set values"]')).toBeVisible();
  await expect(frame.getByTestId('main-sidebar')).toHaveCount(0);
  await expect(frame.getByTestId('execute-workflow-button')).toHaveCount(0);

  await page.evaluate(() => (window as unknown as { send: (m: unknown) => void }).send({ command: 'openWorkflow', workflow: { nodes: [] } }));
  await expect.poll(async () => (await received()).some((m) => m.command === 'error')).toBe(true);

  await frame.locator('[data-test-id="canvas-node"][data-name="Set values"] [class*="nodeCard"]').dblclick();
  await expect(frame.getByTestId('ndv')).toBeVisible();
  await expect.poll(async () => (await received()).some((m) => m.command === 'openNDV')).toBe(true);
  await frame.getByTestId('back-to-canvas').click();
  await expect.poll(async () => (await received()).some((m) => m.command === 'closeNDV')).toBe(true);
  await page.screenshot({ path: 'test-results/editor-demo-frame.png' });
});
