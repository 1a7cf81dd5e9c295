import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { SmtpCapture, linkIn } from '../support/smtpCapture';
import { startStack, type Stack } from '../support/stack';

// The dialogs need instance-wide settings (version notifications against a local endpoint, the
// built-in prompts host) and an owner with a member: they run in order on a stack of their own.
test.describe.configure({ mode: 'serial', timeout: 120_000 });

const OWNER = { email: 'owner@example.com', firstName: 'Olga', lastName: 'Owner', password: 'Owner-Pass1' };
const MEMBER = { email: 'member@example.com', firstName: 'Mia', lastName: 'Member', password: 'Member-Pass1' };
/** Newer versions the local endpoint lists: more than 99, so the menu count reads 99+. */
const NEWER = 120;
const FIX_VERSION = '9.0.1';

let smtp: SmtpCapture;
let stack: Stack;
let versions: http.Server;
/** Paths and instance ids the version endpoint was asked with. */
const asked: Array<{ path: string; instanceId: string | undefined }> = [];
let ownerState: Awaited<ReturnType<Awaited<ReturnType<Browser['newContext']>>['storageState']>>;
let memberState: typeof ownerState;

/**
 * A version endpoint on loopback in n8n's format: the running version (named by the path) with a
 * security issue fixed in FIX_VERSION, and NEWER releases after it. The browser calls it
 * cross-origin, so it answers CORS.
 */
function startVersionsEndpoint(): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Allow-Headers', 'n8n-instance-id, accept, content-type');
    if (req.method === 'OPTIONS') {
      res.writeHead(204).end();
      return;
    }
    const running = decodeURIComponent((req.url ?? '/').split('/').pop() ?? '');
    asked.push({ path: req.url ?? '', instanceId: req.headers['n8n-instance-id'] as string | undefined });
    const newer = Array.from({ length: NEWER }, (_, i) => {
      const minor = NEWER - i;
      return {
        name: `9.${minor}.0`,
        createdAt: new Date(Date.now() - i * 86_400_000 - 3_600_000).toISOString(),
        description: `<p>Release <b>9.${minor}</b> &amp; fixes</p>`,
        documentationUrl: `https://releases.example.com/9.${minor}.0`,
        hasSecurityFix: i === 0,
        hasBreakingChange: i === 1,
        hasSecurityIssue: false,
        nodes: i === 0 ? [{ name: 'n8n-nodes-base.httpRequest', displayName: 'HTTP Request' }, { name: 'n8n-nodes-base.set', displayName: 'Edit Fields (Set)' }] : [],
      };
    });
    const current = { name: running, createdAt: new Date(Date.now() - 200 * 86_400_000).toISOString(), hasSecurityIssue: true, securityIssueFixVersion: FIX_VERSION, nodes: [] };
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify([...newer, current]));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(180_000);
  smtp = await SmtpCapture.start();
  versions = await startVersionsEndpoint();
  const endpoint = `http://127.0.0.1:${(versions.address() as AddressInfo).port}/versions/`;
  stack = await startStack([
    ...smtp.env(),
    'FLOWMILL_VERSION_NOTIFICATIONS_ENABLED=true',
    `FLOWMILL_VERSION_NOTIFICATIONS_ENDPOINT=${endpoint}`,
    'FLOWMILL_VERSION_NOTIFICATIONS_INFO_URL=https://docs.example.com/updating',
    'FLOWMILL_PROMPTS_ENABLED=true',
  ]);

  const ownerContext = await browser.newContext({ baseURL: stack.url });
  const owner = ownerContext.request;
  expect((await owner.get('/rest/login')).status()).toBe(200);
  const setup = await owner.post('/rest/owner', { data: OWNER });
  expect(setup.status(), await setup.text()).toBe(200);
  await owner.post('/rest/me/survey', { data: { version: 'v2' } });
  // The owner has seen both prompts already (offered once each): the prompt test is the member's.
  for (let i = 0; i < 2; i++) expect((await owner.get('/rest/prompts-host/prompts')).status()).toBe(200);
  ownerState = await ownerContext.storageState();

  const invited = await owner.post('/rest/users', { data: [{ email: MEMBER.email }] });
  expect(invited.status(), await invited.text()).toBe(200);
  const link = new URL(linkIn(await smtp.waitFor(MEMBER.email, /invited/), '/signup'));
  const memberContext = await browser.newContext({ baseURL: stack.url });
  const signup = await memberContext.request.post(`/rest/users/${link.searchParams.get('inviteeId')}`, {
    data: { inviterId: link.searchParams.get('inviterId'), token: link.searchParams.get('token'), firstName: MEMBER.firstName, lastName: MEMBER.lastName, password: MEMBER.password },
  });
  expect(signup.status(), await signup.text()).toBe(200);
  await memberContext.request.post('/rest/me/survey', { data: { version: 'v2' } });
  memberState = await memberContext.storageState();
  await ownerContext.close();
  await memberContext.close();
});

test.afterAll(async () => {
  await stack?.stop();
  await smtp?.stop();
  await new Promise((resolve) => versions?.close(resolve));
});

async function pageAs(browser: Browser, state: typeof ownerState): Promise<Page> {
  const context = await browser.newContext({ baseURL: stack.url, storageState: state });
  return context.newPage();
}

/** Screenshots at both widths the editor is checked at. */
async function shots(page: Page, name: string): Promise<void> {
  for (const width of [1280, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/dialogs-${name}-${width}.png` });
  }
}

const toast = (page: Page, title: string) => page.getByTestId('toast').filter({ hasText: title });

test('the updates drawer lists newer versions and the critical-update notice points to it', async ({ browser }) => {
  const page = await pageAs(browser, ownerState);
  await page.goto('/workflow');
  const count = page.getByTestId('main-sidebar-updates-count');
  await expect(count).toHaveText('99+');
  expect(asked.length).toBeGreaterThan(0);
  expect(asked[0]?.instanceId).toMatch(/^[0-9a-f]{64}$/);

  const notice = toast(page, 'Critical update available');
  await expect(notice).toContainText(`Please update to version ${FIX_VERSION} or higher.`);
  await shots(page, 'critical-notice');
  await notice.getByTestId('critical-update-more-info').click();
  await expect(notice).toBeHidden();

  const drawer = page.getByTestId('versions-drawer');
  await expect(drawer).toBeVisible();
  await expect(drawer.getByTestId('version-card')).toHaveCount(NEWER);
  const newest = drawer.locator('[data-test-id="version-card"][data-name="9.120.0"]');
  await expect(newest.getByTestId('version-marker-securityFix')).toHaveText('Security update');
  await expect(newest.getByTestId('version-card-released')).toHaveText('Released 1 hour ago');
  await expect(newest).toContainText('Release 9.120 & fixes');
  await expect(newest.getByTestId('version-card-nodes').locator('[aria-label]')).toHaveCount(2);
  await expect(newest.getByTestId('version-card-link')).toHaveAttribute('href', 'https://releases.example.com/9.120.0');
  await expect(drawer.locator('[data-test-id="version-card"][data-name="9.119.0"]').getByTestId('version-marker-breaking')).toBeVisible();
  await expect(drawer.getByTestId('versions-info-link')).toHaveAttribute('href', 'https://docs.example.com/updating');
  await expect(drawer.getByTestId('versions-summary')).toContainText(`${NEWER} versions behind the latest`);
  const box = await drawer.boundingBox();
  expect(box?.x).toBe(0);
  expect(Math.round(box?.width ?? 0)).toBe(520);
  await shots(page, 'versions-drawer');
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();

  // The sidebar entry opens it again (kept alive: no new request to the endpoint).
  const before = asked.length;
  await page.getByTestId('main-sidebar-updates').click();
  await expect(drawer).toBeVisible();
  expect(asked.length).toBe(before);
});

test('the About dialog shows the version, the source code and licence links and the instance id', async ({ browser }) => {
  const page = await pageAs(browser, ownerState);
  await page.goto('/workflow');
  await page.getByTestId('main-sidebar-help').click();
  await page.getByRole('menuitem', { name: 'About Flowmill' }).click();
  const about = page.getByTestId('about-modal');
  await expect(about).toBeVisible();
  await expect(about.getByTestId('about-version')).not.toBeEmpty();
  await expect(about.getByTestId('about-source-code')).toHaveAttribute('href', 'https://github.com/flowmill/flowmill');
  await expect(about.getByTestId('about-license')).toHaveAttribute('href', /LICENSE$/);
  await expect(about.getByTestId('about-instance-id')).toHaveText(/^[0-9a-f]{64}$/);
  expect(Math.round((await about.boundingBox())?.width ?? 0)).toBe(540);
  await shots(page, 'about');
  await about.getByTestId('about-close').click();
  await expect(about).toBeHidden();

  // The settings pages open it too, from the version under their sidebar.
  await page.goto('/settings/personal');
  await page.getByTestId('settings-version').click();
  await expect(about).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(about).toBeHidden();
});

test('the tags manager creates, renames with Enter, cancels with Esc and deletes after confirmation, with usage counts', async ({ browser }) => {
  const page = await pageAs(browser, ownerState);
  // One workflow carries "billing", so its usage reads 1.
  const billing = await page.request.post('/rest/tags', { data: { name: 'billing' } });
  expect(billing.status()).toBe(200);
  const billingId = ((await billing.json()) as { data: { id: string } }).data.id;
  const created = await page.request.post('/rest/workflows', { data: { name: 'Tagged flow', nodes: [], connections: {}, tags: [billingId] } });
  expect(created.status(), await created.text()).toBe(200);

  await page.goto('/workflow');
  await page.getByTestId('workflow-menu').click();
  await page.getByTestId('workflow-menu-item-open').click();
  await page.getByTestId('workflow-open-manage-tags').click();
  const manager = page.getByTestId('tags-manager');
  await expect(manager).toBeVisible();
  const box = await manager.boundingBox();
  expect(box?.width).toBeGreaterThanOrEqual(620);
  expect(box?.height).toBeGreaterThanOrEqual(420);
  const row = (name: string) => manager.locator(`[data-test-id="tags-table-row"][data-name="${name}"]`);
  await expect(row('billing').getByTestId('tags-table-usage')).toHaveText('1');

  // Create: the new row comes first, Enter applies.
  await manager.getByTestId('tags-manager-add').click();
  const input = manager.getByTestId('tags-table-input');
  await expect(input).toBeFocused();
  await input.fill('ops');
  await shots(page, 'tags-manager-create');
  await input.press('Enter');
  await expect(row('ops')).toBeVisible();
  await expect(row('ops').getByTestId('tags-table-usage')).toHaveText('0');

  // Rename with Enter: the other rows are disabled meanwhile.
  await row('ops').getByTestId('tags-table-edit').click();
  await expect(row('billing')).toHaveAttribute('data-mode', 'disabled');
  await expect(input).toBeFocused();
  await input.fill('platform');
  await input.press('Enter');
  await expect(toast(page, 'Tag updated')).toBeVisible();
  await expect(row('platform')).toHaveAttribute('data-mode', 'idle');
  await expect(row('ops')).toHaveCount(0);

  // Esc cancels the rename and leaves the manager open.
  await row('platform').getByTestId('tags-table-edit').click();
  await input.fill('changed');
  await input.press('Escape');
  await expect(row('platform')).toHaveAttribute('data-mode', 'idle');
  await expect(row('changed')).toHaveCount(0);
  await expect(manager).toBeVisible();
  await expect(page.getByTestId('workflow-open-modal')).toBeVisible();

  // Search filters by name.
  await manager.getByTestId('tags-manager-search').fill('PLAT');
  await expect(manager.getByTestId('tags-table-row')).toHaveCount(1);
  await manager.getByTestId('tags-manager-search').fill('');

  // Delete asks in the row first; Cancel keeps the tag, the confirmation deletes it.
  await row('billing').getByTestId('tags-table-delete').click();
  await expect(row('billing')).toHaveAttribute('data-mode', 'delete');
  await expect(row('billing')).toContainText('Are you sure you want to delete this tag?');
  await shots(page, 'tags-manager-delete');
  await row('billing').getByTestId('tags-table-cancel').click();
  await expect(row('billing')).toHaveAttribute('data-mode', 'idle');
  await row('billing').getByTestId('tags-table-delete').click();
  await row('billing').getByTestId('tags-table-apply').click();
  await expect(toast(page, 'Tag deleted')).toBeVisible();
  await expect(row('billing')).toHaveCount(0);
  const workflow = await page.request.get(`/rest/workflows/${((await created.json()) as { data: { id: string } }).data.id}`);
  expect(((await workflow.json()) as { data: { tags: unknown[] } }).data.tags).toEqual([]);

  // An empty name is refused with the spec's message.
  await manager.getByTestId('tags-manager-add').click();
  await input.press('Enter');
  await expect(toast(page, 'Could not create tag')).toContainText('Tag name cannot be empty');
  await input.press('Escape');

  // The last tag gone, the empty state offers to create one.
  await row('platform').getByTestId('tags-table-delete').click();
  await row('platform').getByTestId('tags-table-apply').click();
  await expect(manager.getByTestId('tags-manager-empty')).toBeVisible();
  await shots(page, 'tags-manager-empty');
  await manager.getByTestId('tags-manager-create-first').click();
  await expect(input).toBeFocused();
  await input.fill('finance');
  await input.press('Enter');
  await expect(row('finance')).toBeVisible();
  await shots(page, 'tags-manager');
  // Esc with no row open closes the manager alone; the open-workflow dialog beneath stays.
  await page.keyboard.press('Escape');
  await expect(manager).toBeHidden();
  await expect(page.getByTestId('workflow-open-modal')).toBeVisible();
  await page.getByTestId('workflow-open-manage-tags').click();
  await expect(manager).toBeVisible();
  await manager.getByTestId('tags-manager-done').click();
  await expect(manager).toBeHidden();
  await expect(page.getByTestId('workflow-open-modal')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('workflow-open-modal')).toBeHidden();
});

test('the contact prompt and the value survey go to the built-in prompts host; the owner lists the answers', async ({ browser }) => {
  const page = await pageAs(browser, memberState);
  await page.goto('/workflow');
  const prompt = page.getByTestId('contact-prompt-modal');
  await expect(prompt).toBeVisible();
  expect(Math.round((await prompt.boundingBox())?.width ?? 0)).toBe(460);
  const send = prompt.getByTestId('contact-prompt-send');
  await expect(send).toBeDisabled();
  await prompt.getByTestId('contact-prompt-email').fill('mia@example');
  await expect(send).toBeDisabled();
  await prompt.getByTestId('contact-prompt-email').fill('mia@example.com');
  await expect(send).toBeEnabled();
  await shots(page, 'contact-prompt');
  await send.click();
  await expect(toast(page, 'Thanks!')).toBeVisible();
  await expect(prompt).toBeHidden();

  // The next page load brings the value survey: a bottom drawer without a backdrop.
  await page.reload();
  const survey = page.getByTestId('value-survey');
  await expect(survey).toBeVisible();
  await expect(survey.getByTestId('value-survey-title')).toHaveText('How likely are you to recommend Flowmill to a friend or colleague?');
  for (let score = 0; score <= 10; score++) await expect(survey.getByTestId(`value-survey-score-${score}`)).toBeVisible();
  const box = await survey.boundingBox();
  expect(Math.round(box?.height ?? 0)).toBe(120);
  await shots(page, 'value-survey');
  await survey.getByTestId('value-survey-score-9').click();
  await expect(survey.getByTestId('value-survey-title')).toContainText('Great to hear!');
  const surveySend = survey.getByTestId('value-survey-send');
  await expect(surveySend).toBeDisabled();
  await survey.getByTestId('value-survey-email').fill('mia.work@example.com');
  await expect(surveySend).toBeEnabled();
  await shots(page, 'value-survey-email');
  await surveySend.click();
  await expect(toast(page, 'Thanks for your feedback')).toBeVisible();
  await expect(survey).toBeHidden();

  // Nothing more is asked now.
  const next = await page.request.get('/rest/prompts-host/prompts');
  expect(await next.json()).toEqual({ showContactPrompt: false, showValueSurvey: false });

  const owner = await pageAs(browser, ownerState);
  await owner.goto('/settings/users');
  const answers = owner.getByTestId('prompt-answers');
  await expect(answers.getByTestId('prompt-answer-row')).toHaveCount(2);
  await expect(answers.locator('[data-test-id="prompt-answer-row"][data-kind="valueSurvey"]')).toContainText('Score 9 · mia.work@example.com');
  await expect(answers.locator('[data-test-id="prompt-answer-row"][data-kind="contact"]')).toContainText('mia@example.com');
  await shots(owner, 'prompt-answers');
});

test('a member manages tags but cannot delete them; the server refuses too', async ({ browser }) => {
  const page = await pageAs(browser, memberState);
  await page.goto('/workflow');
  await page.getByTestId('workflow-menu').click();
  await page.getByTestId('workflow-menu-item-open').click();
  await page.getByTestId('workflow-open-manage-tags').click();
  const manager = page.getByTestId('tags-manager');
  const row = manager.locator('[data-test-id="tags-table-row"][data-name="finance"]');
  await expect(row).toBeVisible();
  await expect(row.getByTestId('tags-table-edit')).toBeVisible();
  await expect(row.getByTestId('tags-table-delete')).toHaveCount(0);
  const tags = (await (await page.request.get('/rest/tags')).json()) as { data: Array<{ id: string; name: string }> };
  const finance = tags.data.find((tag) => tag.name === 'finance');
  const refused = await page.request.delete(`/rest/tags/${finance?.id}`);
  expect(refused.status()).toBe(403);
  await shots(page, 'tags-manager-member');
});
