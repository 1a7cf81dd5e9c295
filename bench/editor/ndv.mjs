// Node details view speed with large input, driven by Playwright against the scaled stack: a Code
// node returns 10,000 items into a Set node; after a run from the editor, opening the Set node's
// panel is timed until the first page of its input shows, then switching the input to JSON until
// the JSON shows. One JSON line per measurement on stdout.
// open_ms is the time to the first paint of the panel's data (the table, or the size guard).
// Usage: node bench/editor/ndv.mjs [-bin bin] [-items 10000] [-runs 5]
import os from 'node:os';
import path from 'node:path';
import { createWorkflow, emitter, median, parseArgs, root, signedInPage, startStack } from './stack.mjs';

const args = parseArgs(process.argv.slice(2));
const bin = path.resolve(root, args.bin ?? 'bin');
const items = Number(args.items ?? 10_000);
const RUNS = Number(args.runs ?? 5);
const emit = emitter('ndv');

// 10,000 items are more than the panel's 204,800-byte guard: opening shows the guard, and the
// first page is timed from "show data anyway" too.
const workflow = {
  name: `Bench NDV ${items} items ${Date.now()}`,
  nodes: [
    { name: 'Start', type: 'n8n-nodes-base.start', typeVersion: 1, position: [240, 300], parameters: {} },
    { name: 'Items', type: 'n8n-nodes-base.code', typeVersion: 1, position: [460, 300], parameters: { jsCode: `return Array.from({ length: ${items} }, (_, i) => ({ json: { i } }));` } },
    { name: 'Set', type: 'n8n-nodes-base.set', typeVersion: 1, position: [680, 300], parameters: { values: { number: [{ name: 'twice', value: '={{$json.i * 2}}' }] } } },
  ],
  connections: {
    Start: { main: [[{ node: 'Items', type: 'main', index: 0 }]] },
    Items: { main: [[{ node: 'Set', type: 'main', index: 0 }]] },
  },
};

const stack = await startStack(bin);
const { browser, page } = await signedInPage(stack.url);
try {
  const id = await createWorkflow(page, workflow);
  await page.goto(`/workflow/${id}`);
  await page.waitForSelector('body[data-push-connected="true"]');
  await page.locator('[data-test-id="execute-workflow-button"]').click();
  await page.locator('[data-test-id="toast"]').filter({ hasText: 'Workflow executed successfully' }).waitFor({ timeout: 120_000 });

  const inputPanel = '[data-test-id="ndv-input-panel"]';
  /** Page time (ms) when the selector first matches, checked every frame. */
  const shownAt = (selector) =>
    page.waitForFunction((s) => (document.querySelector(s) ? performance.now() : null), selector, { polling: 'raf', timeout: 30_000 }).then((h) => h.jsonValue());

  async function once() {
    const card = page.locator('[data-test-id="canvas-node"][data-name="Set"] [class*="nodeCard"]');
    const openAt = await page.evaluate(() => performance.now());
    await card.dblclick();
    const rowSelector = `${inputPanel} [data-test-id="ndv-data-table"] tbody tr`;
    const guardSelector = `${inputPanel} [data-test-id="ndv-show-data-anyway"]`;
    const opened = await shownAt(`${rowSelector}, ${guardSelector}`);
    let guard = null;
    let firstPage = opened;
    if (await page.locator(guardSelector).count()) {
      const showAt = await page.evaluate(() => performance.now());
      await page.locator(guardSelector).click();
      firstPage = await shownAt(rowSelector);
      guard = Math.round(firstPage - showAt);
    }
    const rows = await page.locator(`${inputPanel} [data-test-id="ndv-data-table"] tbody tr`).count();
    const jsonAt = await page.evaluate(() => performance.now());
    await page.locator(`${inputPanel} [data-test-id="ndv-run-data-display-mode"]`).getByText('JSON').click();
    const json = await shownAt(`${inputPanel} [data-test-id="ndv-data-container"] [class*="jsonNumber"]`);
    await page.locator(`${inputPanel} [data-test-id="ndv-run-data-display-mode"]`).getByText('Table').click();
    await page.locator('[data-test-id="back-to-canvas"]').click();
    await page.locator('[data-test-id="ndv"]').waitFor({ state: 'detached' });
    return { open_ms: Math.round(opened - openAt), show_anyway_to_first_page_ms: guard, open_to_first_page_ms: Math.round(firstPage - openAt), rows, switch_to_json_ms: Math.round(json - jsonAt) };
  }

  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await once());
  emit({
    measure: 'open_with_large_input',
    items,
    runs: runs.length,
    rows_shown: runs[0].rows,
    size_guard_shown: runs[0].show_anyway_to_first_page_ms !== null,
    open_ms: median(runs.map((r) => r.open_ms)),
    show_anyway_to_first_page_ms: runs[0].show_anyway_to_first_page_ms === null ? null : median(runs.map((r) => r.show_anyway_to_first_page_ms)),
    open_to_first_page_ms: median(runs.map((r) => r.open_to_first_page_ms)),
    switch_to_json_ms: median(runs.map((r) => r.switch_to_json_ms)),
    open_all: runs.map((r) => r.open_to_first_page_ms),
    json_all: runs.map((r) => r.switch_to_json_ms),
    cpus: os.cpus().length,
    load_average_1m: Math.round(os.loadavg()[0] * 10) / 10,
  });
} finally {
  await browser.close();
  await stack.stop();
}
