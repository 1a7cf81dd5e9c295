import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { SmtpCapture, linkIn } from '../support/smtpCapture';
import { startStack, type Stack } from '../support/stack';

// Owner setup changes the whole instance, so these tests run in order on a stack of their own
// (fresh database, mail sent to an in-process SMTP capture) and leave the shared stack alone.
// Each test opens several browser contexts and signs in again and again: on a loaded 2-core
// machine that alone took close to a minute.
test.describe.configure({ mode: 'serial', timeout: 120_000 });

const OWNER = { email: 'ada@example.com', firstName: 'Ada', lastName: 'Owner', password: 'Owner-Pass1' };
const MEMBER = { email: 'member@example.com', firstName: 'Mia', lastName: 'Member', password: 'Member-Pass1' };
const SECOND = 'second@example.com';

let smtp: SmtpCapture;
let stack: Stack;
let ownerState: Awaited<ReturnType<BrowserContext['storageState']>>;
let memberState: Awaited<ReturnType<BrowserContext['storageState']>>;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  smtp = await SmtpCapture.start();
  stack = await startStack([...smtp.env(), 'FLOWMILL_PERSONALIZATION_ENABLED=true']);
});

test.afterAll(async () => {
  await stack?.stop();
  await smtp?.stop();
});

async function newPage(browser: Browser, storageState?: typeof ownerState): Promise<Page> {
  const context = await browser.newContext({ baseURL: stack.url, storageState });
  return context.newPage();
}

const shot = (page: Page, name: string) => page.screenshot({ path: `test-results/accounts-${name}.png`, fullPage: true });

const input = (page: Page, name: string) => page.locator(`input[name="${name}"]`);

async function workflowNames(page: Page): Promise<string[]> {
  const res = await page.request.get('/rest/workflows');
  expect(res.status()).toBe(200);
  return ((await res.json()) as { data: Array<{ name: string }> }).data.map((workflow) => workflow.name);
}

async function finishSurvey(page: Page, answer: (page: Page) => Promise<void> = async () => {}) {
  const survey = page.getByTestId('personalization-form');
  await expect(survey).toBeVisible();
  await answer(page);
  await page.getByTestId('personalization-continue').click();
  await expect(page.getByTestId('personalization-get-started')).toBeVisible();
  await page.getByTestId('personalization-get-started').click();
  await expect(survey).toBeHidden();
}

test('setup can be skipped and done later from the users page; existing workflows are migrated after confirmation', async ({ browser }) => {
  const page = await newPage(browser);
  await page.goto('/');
  await expect(page).toHaveURL(/\/setup$/);
  // A workflow made before setup belongs to the default owner and moves to the new owner.
  const created = await page.request.post('/rest/workflows', { data: { name: 'Owner flow', nodes: [], connections: {} } });
  expect(created.status()).toBe(200);

  await page.getByTestId('skip-setup-link').click();
  await expect(page.getByText('Skip owner account setup?')).toBeVisible();
  await shot(page, 'setup-skip-confirm');
  await page.getByTestId('setup-skip-confirm').click();
  await expect(page).toHaveURL(/\/workflow$/);
  // The survey follows the answers: MSPs are asked for their focus, not their customers.
  await finishSurvey(page, async () => {
    await page.getByTestId('personalization-companyType').click();
    await page.getByRole('option', { name: 'Managed service provider' }).click();
    await expect(page.getByTestId('personalization-mspFocus')).toBeVisible();
    await expect(page.getByTestId('personalization-customerType')).toHaveCount(0);
    await shot(page, 'personalization');
  });

  await page.goto('/settings/users');
  await expect(page.getByTestId('settings-users-invite-button')).toHaveCount(0);
  await shot(page, 'users-setup-box');
  await page.getByTestId('users-setup-button').click();
  await expect(page).toHaveURL(/\/setup$/);

  await page.getByTestId('setup-submit').click();
  await expect(page.getByText('This field is required').first()).toBeVisible();
  await input(page, 'email').fill('not-an-address');
  await input(page, 'password').fill('weak');
  await input(page, 'firstName').click();
  await expect(page.getByText('Must be a valid email')).toBeVisible();
  await expect(page.getByText('Must be at least 8 characters')).toBeVisible();
  await shot(page, 'setup-errors');

  await input(page, 'email').fill(OWNER.email);
  await input(page, 'firstName').fill(OWNER.firstName);
  await input(page, 'lastName').fill(OWNER.lastName);
  await input(page, 'password').fill(OWNER.password);
  await shot(page, 'setup');
  await page.getByTestId('setup-submit').click();
  await expect(page.getByText(/will be migrated to the owner account \(workflows: 1, credentials: 0\)/)).toBeVisible();
  await shot(page, 'setup-migrate-confirm');
  await page.getByTestId('setup-migrate-confirm').click();

  // Setup that was not the first-load page goes on to the users page.
  await expect(page).toHaveURL(/\/settings\/users$/);
  await expect(page.getByTestId('user-row')).toHaveCount(1);
  const me = (await (await page.request.get('/rest/me')).json()) as { data: { email: string; personalizationAnswers: Record<string, unknown> } };
  expect(me.data.email).toBe(OWNER.email);
  expect(me.data.personalizationAnswers).toMatchObject({ version: 'v2', companyType: 'msp' });
  expect(await workflowNames(page)).toEqual(['Owner flow']);
  ownerState = await page.context().storageState();
  await page.context().close();
});

test('sign-in checks fields only when sending, and honours only local redirects', async ({ browser }) => {
  const page = await newPage(browser);
  await page.goto('/settings/personal');
  await expect(page).toHaveURL(/\/signin\?redirect=%2Fsettings%2Fpersonal$/);
  await expect(page.locator('.mantine-InputWrapper-required')).toHaveCount(0);
  await input(page, 'email').click();
  await input(page, 'password').click();
  await page.getByTestId('signin-form').getByRole('heading').click();
  await expect(page.getByText('This field is required')).toHaveCount(0);
  await page.getByTestId('signin-button').click();
  await expect(page.getByText('This field is required')).toHaveCount(2);
  await shot(page, 'signin-errors');

  await input(page, 'email').fill(OWNER.email);
  await input(page, 'password').fill('Wrong-Pass1');
  await page.getByTestId('signin-button').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Problem logging in' })).toBeVisible();
  await input(page, 'password').fill(OWNER.password);
  await page.getByTestId('signin-button').click();
  await expect(page).toHaveURL(/\/settings\/personal$/);
  await page.context().close();

  for (const target of ['//evil.example.com/x', '/\\evil.example.com', 'https://evil.example.com/', '/%2F%2Fevil.example.com', '\t//evil.example.com']) {
    const visitor = await newPage(browser);
    await visitor.goto(`/signin?redirect=${encodeURIComponent(target)}`);
    await input(visitor, 'email').fill(OWNER.email);
    await input(visitor, 'password').fill(OWNER.password);
    await visitor.getByTestId('signin-button').click();
    await expect(visitor.getByTestId('main-sidebar').or(visitor.getByTestId('not-found-code'))).toBeVisible();
    expect(new URL(visitor.url()).origin).toBe(new URL(stack.url).origin);
    await visitor.context().close();
  }

  // Signed in already: the sign-in page sends local redirects on and everything else home.
  const owner = await newPage(browser, ownerState);
  await owner.goto(`/signin?redirect=${encodeURIComponent('//evil.example.com')}`);
  await expect(owner).toHaveURL(new RegExp(`^${stack.url}workflow$`));
  await owner.goto(`/signin?redirect=${encodeURIComponent('/settings/api')}`);
  await expect(owner).toHaveURL(/\/settings\/api$/);
  await owner.context().close();
});

test('the owner invites a member, who signs up from the mail and sees only their own workflows', async ({ browser }) => {
  const owner = await newPage(browser, ownerState);
  await owner.goto('/settings/users');
  await expect(owner.getByTestId('users-list').getByTestId('user-row')).toHaveCount(1);
  await owner.getByTestId('settings-users-invite-button').click();
  const emails = input(owner, 'emails');
  await emails.fill('nobody, Mia Member <member@example.com>');
  await emails.blur();
  await expect(owner.getByText('nobody is not a valid email')).toBeVisible();
  await expect(owner.getByTestId('invite-users-submit')).toHaveText('Invite 2 users');
  await shot(owner, 'invite-errors');
  await emails.fill(`Mia Member <${MEMBER.email}>, ${SECOND}`);
  await expect(owner.getByText('is not a valid email')).toHaveCount(0);
  const before = smtp.mails.length;
  await owner.getByTestId('invite-users-submit').click();
  await expect(owner.getByTestId('toast').filter({ hasText: 'Users invited' })).toBeVisible();
  await expect(owner.getByTestId('user-pending-badge')).toHaveCount(2);
  await shot(owner, 'users');

  // Re-inviting sends the invitation again.
  const beforeReinvite = smtp.mails.length;
  await owner.getByTestId('user-row').filter({ hasText: SECOND }).getByTestId('user-actions').click();
  await owner.getByTestId('user-reinvite').click();
  await expect(owner.getByTestId('toast').filter({ hasText: 'Invite resent' })).toBeVisible();
  await smtp.waitFor(SECOND, /invited/, beforeReinvite);

  const invitation = await smtp.waitFor(MEMBER.email, /invited/, before);
  const link = linkIn(invitation, '/signup');
  const member = await newPage(browser);
  await member.goto(link);
  await expect(member.getByTestId('signup-inviter')).toHaveText('Ada Owner has invited you to Flowmill');
  await input(member, 'firstName').fill(MEMBER.firstName);
  await input(member, 'lastName').fill(MEMBER.lastName);
  await input(member, 'password').fill(MEMBER.password);
  await shot(member, 'signup');
  await member.getByTestId('signup-submit').click();
  await expect(member).toHaveURL(/\/workflow$/);
  await finishSurvey(member);

  const own = await member.request.post('/rest/workflows', { data: { name: 'Member flow', nodes: [], connections: {} } });
  expect(own.status()).toBe(200);
  expect(await workflowNames(member)).toEqual(['Member flow']);
  expect((await workflowNames(owner)).sort()).toEqual(['Member flow', 'Owner flow']);
  // Members do not reach the users page; the settings sidebar does not offer it.
  await member.goto('/settings/personal');
  await expect(member.getByTestId('menu-item-personal')).toBeVisible();
  await expect(member.getByTestId('menu-item-users')).toHaveCount(0);
  await member.goto('/settings/users');
  await expect(member).toHaveURL(/\/workflow$/);
  memberState = await member.context().storageState();

  // An invitation link that was used, or that lacks its ids, does not work.
  const stranger = await newPage(browser);
  await stranger.goto(link);
  await expect(stranger).toHaveURL(/\/signin$/);
  await expect(stranger.getByTestId('toast').filter({ hasText: 'Issue validating invite token' })).toBeVisible();
  await stranger.goto('/signup?inviterId=x');
  await expect(stranger.getByTestId('signup-missing-token')).toBeVisible();
  await shot(stranger, 'signup-missing-token');
  await stranger.context().close();
  await member.context().close();
  await owner.context().close();
});

test('a member resets a forgotten password from the mail', async ({ browser }) => {
  const page = await newPage(browser);
  await page.goto('/signin');
  await page.getByTestId('forgot-password-link').click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await input(page, 'email').fill('nobody@example.com');
  await page.getByTestId('forgot-password-submit').click();
  // The answer for an unknown address reads like the one for a known address.
  await expect(page.getByTestId('forgot-password-sent')).toHaveText(/If nobody@example.com belongs to an account/);

  await page.goto('/forgot-password');
  await shot(page, 'forgot-password');
  const before = smtp.mails.length;
  await input(page, 'email').fill(MEMBER.email);
  await page.getByTestId('forgot-password-submit').click();
  await expect(page.getByTestId('forgot-password-sent')).toHaveText(/If member@example.com belongs to an account/);
  const link = linkIn(await smtp.waitFor(MEMBER.email, /password/i, before), '/change-password');

  await page.goto('/change-password?token=wrong&userId=wrong');
  await expect(page.getByTestId('toast').filter({ hasText: 'Issue validating the password reset link' })).toBeVisible();
  await expect(page.getByTestId('change-password-invalid')).toBeVisible();
  await shot(page, 'change-password-invalid');

  await page.goto(link);
  await input(page, 'password').fill('Member-Pass2');
  await input(page, 'password2').fill('Member-Pass3');
  await page.getByTestId('change-password-submit').click();
  await expect(page.getByText('Passwords must match')).toBeVisible();
  await shot(page, 'change-password');
  await input(page, 'password2').fill('Member-Pass2');
  await page.getByTestId('change-password-submit').click();
  await expect(page).toHaveURL(/\/workflow$/);
  MEMBER.password = 'Member-Pass2';

  // The link works once, and the old password no longer signs in.
  await page.context().clearCookies();
  await page.goto(link);
  await expect(page.getByTestId('change-password-invalid')).toBeVisible();
  const old = await page.request.post('/rest/login', { data: { email: MEMBER.email, password: 'Member-Pass1' } });
  expect(old.status()).toBe(401);
  await page.context().close();
});

test('a member edits their profile and changes their password in personal settings', async ({ browser }) => {
  const page = await newPage(browser);
  await page.goto('/signin');
  await input(page, 'email').fill(MEMBER.email);
  await input(page, 'password').fill(MEMBER.password);
  await page.getByTestId('signin-button').click();
  await expect(page).toHaveURL(/\/workflow$/);
  await page.goto('/settings/personal');
  await expect(page.getByTestId('current-user-name')).toHaveText('Mia Member');
  const save = page.getByTestId('save-settings-button');
  await expect(save).toBeDisabled();
  await input(page, 'lastName').fill('');
  await input(page, 'lastName').blur();
  await expect(page.getByText('This field is required')).toBeVisible();
  await expect(save).toBeDisabled();
  await input(page, 'lastName').fill('Maker');
  await expect(save).toBeEnabled();
  await shot(page, 'personal-settings');
  await save.click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Personal details updated' })).toBeVisible();
  await expect(page.getByTestId('current-user-name')).toHaveText('Mia Maker');
  await expect(save).toBeDisabled();

  await page.getByTestId('change-password-link').click();
  const modal = page.getByTestId('change-password-modal-form');
  await modal.getByTestId('change-password-modal-submit').click();
  await expect(modal.getByText('This field is required')).toHaveCount(3);
  await input(page, 'currentPassword').fill('Wrong-Pass9');
  await input(page, 'password').fill('Member-Pass4');
  await input(page, 'password2').fill('Member-Pass4');
  await shot(page, 'change-password-modal');
  await modal.getByTestId('change-password-modal-submit').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Problem changing the password' })).toBeVisible();
  await input(page, 'currentPassword').fill(MEMBER.password);
  await modal.getByTestId('change-password-modal-submit').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Password updated' })).toBeVisible();
  await expect(modal).toBeHidden();
  MEMBER.password = 'Member-Pass4';
  // The session goes on with the new cookie; a fresh sign-in needs the new password.
  expect((await page.request.get('/rest/me')).status()).toBe(200);
  const fresh = await newPage(browser);
  expect((await fresh.request.post('/rest/login', { data: { email: MEMBER.email, password: 'Member-Pass4' } })).status()).toBe(200);
  await fresh.context().close();
  await page.context().close();
});

test('the owner deletes the member and takes over their workflows; a pending user needs only confirmation', async ({ browser }) => {
  const owner = await newPage(browser, ownerState);
  await owner.goto('/settings/users');
  await owner.getByTestId('user-row').filter({ hasText: MEMBER.email }).getByTestId('user-actions').click();
  await owner.getByTestId('user-delete').click();
  const submit = owner.getByTestId('delete-user-submit');
  await expect(submit).toBeDisabled();
  await owner.getByTestId('delete-mode-delete').click();
  await owner.getByTestId('delete-data-input').fill('delete all');
  await expect(submit).toBeDisabled();
  await owner.getByTestId('delete-data-input').fill('delete all data');
  await expect(submit).toBeEnabled();
  await owner.getByTestId('delete-mode-transfer').click();
  await expect(submit).toBeDisabled();
  await owner.getByTestId('delete-transfer-select').click();
  await owner.getByRole('option', { name: /Ada Owner/ }).click();
  await expect(submit).toBeEnabled();
  await shot(owner, 'delete-user');
  await submit.click();
  await expect(owner.getByTestId('toast').filter({ hasText: 'Data was transferred to Ada Owner' })).toBeVisible();
  await expect(owner.getByTestId('user-row').filter({ hasText: MEMBER.email })).toHaveCount(0);
  expect((await workflowNames(owner)).sort()).toEqual(['Member flow', 'Owner flow']);

  await owner.getByTestId('user-row').filter({ hasText: SECOND }).getByTestId('user-actions').click();
  await owner.getByTestId('user-delete').click();
  await expect(owner.getByText('Are you sure you want to delete this invited user?')).toBeVisible();
  await owner.getByTestId('delete-user-submit').click();
  await expect(owner.getByTestId('user-row')).toHaveCount(1);

  // The deleted member's session is over.
  const gone = await newPage(browser, memberState);
  expect((await gone.request.get('/rest/me')).status()).toBe(401);
  await gone.context().close();
  await owner.context().close();
});

test('the owner creates, copies, uses and deletes an API key from the settings page', async ({ browser }) => {
  const owner = await newPage(browser, ownerState);
  await owner.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(stack.url).origin });
  await owner.goto('/settings/api');
  await expect(owner.getByTestId('settings-badge')).toHaveText('Beta');
  await shot(owner, 'api-empty');
  await owner.getByTestId('api-key-create').click();
  const keyInput = owner.getByTestId('api-key-input');
  await expect(keyInput).toHaveValue(/^flowmill_\w{16,}$/);
  const key = await keyInput.inputValue();
  await owner.getByTestId('copy-api-key').click();
  await expect(owner.getByTestId('toast').filter({ hasText: 'API Key copied to clipboard' })).toBeVisible();
  expect(await owner.evaluate(() => navigator.clipboard.readText())).toBe(key);
  await expect(owner.getByTestId('api-playground-link')).toHaveAttribute('href', '/api/v1/docs');
  await shot(owner, 'api-key');

  const listed = await owner.request.get('/api/v1/workflows', { headers: { 'X-FLOWMILL-API-KEY': key } });
  expect(listed.status()).toBe(200);
  const docs = await owner.request.get('/api/v1/docs');
  expect(docs.status()).toBe(200);

  // Shown in full once: after a reload only its shortened form remains.
  await owner.reload();
  await expect(keyInput).toHaveValue(/…/);
  await expect(owner.getByTestId('copy-api-key')).toHaveCount(0);
  await owner.getByTestId('api-key-delete').click();
  await shot(owner, 'api-key-delete');
  await owner.getByTestId('api-key-delete-confirm').click();
  await expect(owner.getByTestId('api-key-create')).toBeVisible();
  const refused = await owner.request.get('/api/v1/workflows', { headers: { 'X-FLOWMILL-API-KEY': key } });
  expect(refused.status()).toBe(401);
  await owner.context().close();
});

test('without outgoing mail, inviting is disabled with a warning and recovery shows only a warning', async ({ browser }) => {
  const owner = await newPage(browser, ownerState);
  // The same instance, told by its settings that no mail server is set up.
  await owner.route('**/rest/settings', async (route) => {
    const res = await route.fetch();
    const body = (await res.json()) as { data: { userManagement: { smtpSetup: boolean } } };
    body.data.userManagement.smtpSetup = false;
    await route.fulfill({ response: res, json: body });
  });
  await owner.goto('/settings/users');
  await expect(owner.getByTestId('smtp-warning')).toBeVisible();
  await expect(owner.getByTestId('settings-users-invite-button')).toBeDisabled();
  await owner.getByTestId('invite-disabled-tooltip-target').hover();
  await expect(owner.getByText('You must set up SMTP to invite users')).toBeVisible();
  await shot(owner, 'users-no-smtp');
  await owner.getByTestId('settings-version').click();
  await expect(owner.getByRole('dialog', { name: 'About Flowmill' })).toBeVisible();
  await owner.keyboard.press('Escape');
  await owner.getByTestId('settings-back').click();
  await expect(owner).toHaveURL(/\/workflow$/);
  await owner.context().close();

  const visitor = await newPage(browser);
  await visitor.route('**/rest/settings', async (route) => {
    const res = await route.fetch();
    const body = (await res.json()) as { data: { userManagement: { smtpSetup: boolean } } };
    body.data.userManagement.smtpSetup = false;
    await route.fulfill({ response: res, json: body });
  });
  await visitor.goto('/forgot-password');
  await expect(visitor.getByTestId('forgot-password-no-smtp')).toBeVisible();
  await expect(input(visitor, 'email')).toHaveCount(0);
  await shot(visitor, 'forgot-password-no-smtp');
  await visitor.context().close();
});
