import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';

/**
 * Signs the page's context in as the instance's default owner and gets owner setup and the
 * survey out of the way, so the editor opens straight away. Skipping setup changes the shared
 * stack for good, so the editor specs are named to run after smoke.spec.ts, which needs it fresh.
 */
export async function signIn(page: Page): Promise<void> {
  expect((await page.request.get('/rest/login')).status()).toBe(200);
  await page.request.post('/rest/owner/skip-setup');
  await page.request.post('/rest/me/survey', { data: { version: 'v2' } });
}

export const node = (page: Page, name: string): Locator => page.locator(`[data-test-id="canvas-node"][data-name="${name}"]`);

export const edge = (page: Page, source: string, target: string): Locator =>
  page.locator(`[data-test-id="canvas-edge"][data-source="${source}"][data-target="${target}"]`);

/** The hover actions of one connection. */
export const edgeActions = (page: Page, source: string, target: string): Locator =>
  page.locator(`[data-test-id="edge-label"][data-source="${source}"][data-target="${target}"]`);

/** Opens a new workflow and waits for its Start node. */
export async function openNewWorkflow(page: Page): Promise<void> {
  await page.goto('/workflow');
  await expect(node(page, 'Start')).toBeVisible();
  await expect(page.locator('body')).toHaveAttribute('data-push-connected', 'true');
}

/**
 * Picks a node type in the open node creator by searching its name. The added node's details
 * open (as in n8n); they are closed again unless `keepOpen`.
 */
export async function pickInCreator(page: Page, search: string, displayName: string, keepOpen = false): Promise<void> {
  const creator = page.getByTestId('node-creator');
  await expect(creator).toBeVisible();
  await page.getByTestId('node-creator-search-bar').fill(search);
  await creator.getByTestId('node-creator-item-name').filter({ hasText: new RegExp(`^${displayName}$`) }).click();
  await expect(creator).toBeHidden();
  const ndv = page.getByTestId('ndv');
  await expect(ndv).toBeVisible();
  if (keepOpen) return;
  await ndv.getByTestId('back-to-canvas').click();
  await expect(ndv).toBeHidden();
}

/** Adds a node after another through the other node's plus endpoint. */
export async function addAfter(page: Page, source: string, search: string, displayName: string, output = 0): Promise<void> {
  await node(page, source).getByTestId('canvas-plus-button').nth(output).click();
  await pickInCreator(page, search, displayName);
}

/** Drags a connection from a node's output to another node's input. */
export async function connect(page: Page, source: string, target: string, output = 0): Promise<void> {
  const from = node(page, source).locator('.react-flow__handle.source').nth(output);
  const to = node(page, target).locator('.react-flow__handle.target').first();
  const a = await from.boundingBox();
  const b = await to.boundingBox();
  if (!a || !b) throw new Error('handles not visible');
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + 40, a.y + 20, { steps: 5 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 10 });
  await page.mouse.up();
}

/** Clicks a node's card (selects it). */
export async function select(page: Page, name: string, modifiers: Array<'Shift'> = []): Promise<void> {
  await node(page, name).locator('[class*="nodeCard"]').click({ modifiers });
}

export interface StoredWorkflow {
  id: string;
  name: string;
  active: boolean;
  nodes: Array<{ name: string; type: string; typeVersion?: number; position: [number, number]; disabled?: boolean; parameters: Record<string, unknown> }>;
  connections: Record<string, { main: Array<Array<{ node: string; index: number }>> }>;
  tags: Array<{ id: string; name: string }>;
  settings: { executionTimeout?: number; executionOrder?: string } | null;
}

export async function getWorkflow(request: APIRequestContext, id: string): Promise<StoredWorkflow> {
  const res = await request.get(`/rest/workflows/${id}`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as { data: StoredWorkflow }).data;
}

export async function createWorkflow(request: APIRequestContext, body: Record<string, unknown>): Promise<StoredWorkflow> {
  const res = await request.post('/rest/workflows', { data: body });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { data: StoredWorkflow }).data;
}

/** Source → target pairs of a stored connection map, sorted. */
export function links(workflow: Pick<StoredWorkflow, 'connections'>): string[] {
  const out: string[] = [];
  for (const [source, types] of Object.entries(workflow.connections)) {
    (types.main ?? []).forEach((targets, index) => {
      for (const target of targets ?? []) out.push(`${source}:${index}->${target.node}`);
    });
  }
  return out.sort();
}

/** A unique name for workflows a test creates on the shared stack. */
export function uniqueName(prefix: string): string {
  return `${prefix} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
}

/** The id in the editor's URL, once saved. */
export function workflowIdOf(page: Page): string {
  const match = /\/workflow\/([^/?]+)/.exec(page.url());
  if (!match?.[1]) throw new Error(`not a saved workflow URL: ${page.url()}`);
  return match[1];
}

/** Pastes text as the browser's paste event would (headless Chromium sends none for Ctrl+V). */
export async function paste(page: Page, text: string): Promise<void> {
  await page.evaluate((value) => {
    const data = new DataTransfer();
    data.setData('text/plain', value);
    document.body.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true }));
  }, text);
}
