import { call, issueKey, uniqueId } from '../support/auth';
import { TEST_ADMIN_KEY } from '../support/test-app';
import { portalSuite, screenshot, signIn, visit } from './browser';

/** An administrator in a browser, through the portal only; the test checks the outcome through the API. */
describe('the portal, signed in with an admin key', () => {
  const suite = portalSuite();

  it('onboards a merchant, issues it a key, revokes the key, and the API refuses the key from then on', async () => {
    const { page } = suite.tab;
    await page.goto(`${new URL(suite.app.baseUrl).origin}/portal`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await screenshot(page, 'sign-in');
    await signIn(suite.tab, suite.app, TEST_ADMIN_KEY);
    await page.getByRole('heading', { level: 1, name: 'Merchants' }).waitFor();

    const merchantId = uniqueId('deli');
    await page.getByLabel('Merchant id').fill(merchantId);
    await page.getByLabel('Name').fill('Corner Deli');
    await page.getByLabel('Environment').selectOption('sandbox');
    await page.getByRole('button', { name: 'Onboard merchant' }).click();
    await page.getByText(`Onboarded Corner Deli as ${merchantId} (sandbox).`).waitFor();
    await page.getByRole('cell', { name: merchantId }).waitFor();
    expect((await call(suite.app, 'GET', '/admin/merchants', { key: TEST_ADMIN_KEY })).body.merchants).toEqual([
      expect.objectContaining({ merchant_id: merchantId, name: 'Corner Deli', environment: 'sandbox' }),
    ]);
    await screenshot(page, 'merchants');

    await page.getByRole('link', { name: 'Issue a key for it' }).click();
    await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
    expect(await page.getByLabel('Merchant id').inputValue()).toBe(merchantId);
    await page.getByLabel('Role').selectOption('merchant');
    await page.getByLabel('Name').fill('Lane 1 register');
    await page.getByRole('button', { name: 'Issue key' }).click();
    const rawKey = await page.getByLabel('The new key').inputValue();
    expect(rawKey).toMatch(/^svc_[A-Za-z0-9]{32}$/);
    await page.getByRole('button', { name: 'Copy key' }).click();
    await page.getByText('Copied to the clipboard.').waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(rawKey);
    expect((await call(suite.app, 'GET', '/jurisdiction/AZ', { key: rawKey })).status).toBe(200);
    // The one-time key and the list under it, in one picture.
    await page.getByLabel('The new key').evaluate((input) => input.scrollIntoView({ block: 'center' }));
    await screenshot(page, 'api-keys');

    await page.getByRole('button', { name: 'Revoke key Lane 1 register' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke this key?' });
    await dialog.waitFor();
    await screenshot(page, 'api-key-revoke');
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await page.getByText(/^Revoked “Lane 1 register”/).waitFor();
    await page.getByText(/^Revoked \d{4}-/).waitFor();

    const refused = await call(suite.app, 'GET', '/jurisdiction/AZ', { key: rawKey });
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ error: 'UNAUTHORIZED', message: 'Invalid or missing API key' });
  });

  it('works from the keyboard alone: skip link, sign-in, page links, focus on each page’s heading', async () => {
    const { page } = suite.tab;
    const focused = () =>
      page.evaluate('document.activeElement.tagName + " " + document.activeElement.textContent.trim().slice(0, 40)');
    await page.goto(`${new URL(suite.app.baseUrl).origin}/portal/`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await focused()).toBe('H1 Sign in');
    await page.keyboard.press('Shift+Tab');
    expect(await focused()).toBe('A Skip to content');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.name')).toBe('key');
    await page.keyboard.type(TEST_ADMIN_KEY);
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    expect(await focused()).toBe('H1 Merchants');

    await page.getByRole('link', { name: 'Audit log' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
    expect(await focused()).toBe('H1 Audit log');
    expect(await page.getByRole('link', { name: 'Audit log' }).getAttribute('aria-current')).toBe('page');
  });

  it('copies a key id, cut short on screen, whole from the keyboard', async () => {
    const { api_key: issued } = await issueKey(suite.app, { role: 'auditor', name: 'Copied auditor' });
    const { page } = suite.tab;
    await signIn(suite.tab, suite.app, TEST_ADMIN_KEY);
    await visit(suite.tab, 'keys', 'API keys');
    const id = page.getByRole('button', { name: issued.id, exact: true });
    expect(await id.getAttribute('title')).toBe(`${issued.id} (copy)`);
    // Cut with an ellipsis: narrower on screen than the whole id it holds.
    expect(await id.evaluate((button) => button.scrollWidth > button.clientWidth)).toBe(true);
    await id.focus();
    await page.keyboard.press('Enter');
    await page
      .getByRole('status')
      .filter({ hasText: `Copied ${issued.id}.` })
      .waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(issued.id);
  });

  it('asks before revoking and revokes nothing when cancelled', async () => {
    const issued = await call(suite.app, 'POST', '/admin/api-keys', {
      key: TEST_ADMIN_KEY,
      body: { role: 'auditor', name: 'Kept auditor' },
    });
    await signIn(suite.tab, suite.app, TEST_ADMIN_KEY);
    await visit(suite.tab, 'keys', 'API keys');
    await suite.tab.page.getByRole('button', { name: 'Revoke key Kept auditor' }).click();
    await suite.tab.page.keyboard.press('Escape');
    await suite.tab.page.getByRole('dialog').waitFor({ state: 'detached' });
    expect((await call(suite.app, 'GET', '/admin/audit-logs?limit=1', { key: issued.body.key })).status).toBe(200);
  });

  it('filters the jurisdiction rules and edits one through PUT /admin/jurisdictions/{lookup_key}', async () => {
    const { page } = suite.tab;
    await signIn(suite.tab, suite.app, TEST_ADMIN_KEY);
    await visit(suite.tab, 'jurisdictions', 'Jurisdiction rules');
    await page.getByLabel('State').fill('OR');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByText(/^\d+ of \d+ rules\.$/).waitFor();
    const oregon = async () =>
      (await call(suite.app, 'GET', '/jurisdictions?state=OR', { key: TEST_ADMIN_KEY })).body.rules;
    const [before] = await oregon();
    await page.getByRole('button', { name: 'Edit rule OR rounding' }).click();
    await page.getByLabel('Legislation').fill('OR HB 1234 (2026)');
    await page.getByLabel('Enforcement').selectOption('mandatory');
    await page.getByLabel('Disclosure required').uncheck();
    await page.getByRole('button', { name: 'Save rule' }).click();
    await page.getByText(/^Replaced the version of OR/).waitFor();
    await screenshot(page, 'jurisdictions');

    // The rule's disclosure follows the spec's disclosure_required.
    expect(before.disclosure.kind).not.toBe('none');
    expect(await oregon()).toEqual([
      {
        ...before,
        legislation: 'OR HB 1234 (2026)',
        enforcement: 'mandatory',
        disclosure_required: false,
        disclosure: { ...before.disclosure, kind: 'none' },
      },
    ]);
    const changes = await call(suite.app, 'GET', '/admin/audit-logs?event_type=jurisdiction_rule', {
      key: TEST_ADMIN_KEY,
    });
    expect(changes.body.entries.at(-1).details).toMatchObject({
      rule: { lookup_key: 'OR', legislation: 'OR HB 1234 (2026)' },
    });
  });
});
