import { DATABASE } from '../../src/platform/event-store/sql';
import { call, issueKey, onboardMerchant } from '../support/auth';
import { recordSale } from '../support/sales';
import { changeData } from '../support/tampering';
import { TEST_ADMIN_KEY } from '../support/test-app';
import { LAPTOP, PHONE, portalSuite, screenshot, visit } from './browser';
import { layoutProblems } from './layout';

/** An auditor in a browser: reads and verifies the log, and gets none of the admin pages. */
describe('the portal, signed in with an auditor key', () => {
  let auditorKey: string;
  const suite = portalSuite({ signInWith: () => auditorKey });

  beforeAll(async () => {
    const { merchant_id: merchantId } = await onboardMerchant(suite.app);
    const merchantKey = (await issueKey(suite.app, { role: 'merchant', merchant_id: merchantId })).key;
    for (let i = 0; i < 4; i++)
      await recordSale(suite.app, merchantKey, merchantId, { subtotal_cents: 1001 + i, cashier_id: 'emp-7' });
    auditorKey = (await issueKey(suite.app, { role: 'auditor', name: 'Compliance review' })).key;
  });

  it('cannot see the key or merchant pages: not offered, and refused without asking the API when opened directly', async () => {
    const { page } = suite.tab;
    await page.getByRole('heading', { level: 1, name: 'Verify the hash chain' }).waitFor();
    const offered = await page.getByRole('navigation', { name: 'Portal pages' }).getByRole('link').allTextContents();
    expect(offered).toEqual([
      'Jurisdiction rules',
      'Verify the hash chain',
      'Audit log',
      'Checkpoint and witnesses',
      'Void analytics',
      'Override report',
      'CSV export',
      'Webhooks',
    ]);

    const asked = suite.tab.requests.length;
    for (const [route, title] of [
      ['keys', 'API keys'],
      ['merchants', 'Merchants'],
      ['fraud-overview', 'Fraud overview'],
    ]) {
      await visit(suite.tab, route, title);
      await page.getByText(`the API refuses it to your auditor key`).waitFor();
      expect(await page.getByRole('table').count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Issue key' }).count()).toBe(0);
    }
    // Only the public /health, which every page reads for the chain-alarm banner.
    expect(
      suite.tab.requests.slice(asked).filter((url) => url.includes('/api/v1/') && !url.endsWith('/api/v1/health')),
    ).toEqual([]);
    // And the API, which the portal only mirrors, refuses the auditor key there too.
    expect((await call(suite.app, 'GET', '/admin/api-keys', { key: auditorKey })).status).toBe(403);
  });

  it('offers no rule editing to an auditor', async () => {
    await visit(suite.tab, 'jurisdictions', 'Jurisdiction rules');
    await suite.tab.page.getByRole('cell', { name: 'AZ', exact: true }).waitFor();
    expect(await suite.tab.page.getByRole('button', { name: /^Edit rule/ }).count()).toBe(0);
  });

  it('runs the verification, then sees the break after an entry is changed with SQL behind the service’s back', async () => {
    const { page } = suite.tab;
    await page.getByRole('button', { name: 'Run verification' }).click();
    await page.getByText(/^The chain is intact: all \d+ entries verified\.$/).waitFor();

    const sales = (await call(suite.app, 'GET', '/admin/audit-logs?event_type=transaction', { key: TEST_ADMIN_KEY }))
      .body.entries;
    const victim = sales[2];
    await changeData(suite.app.app.get(DATABASE), victim.position, ['calculation', 'cash_total_cents'], 1);

    await page.getByRole('button', { name: 'Run verification' }).click();
    await page.getByText('1 break found: the log was changed after it was written.').waitFor();
    const row = page.getByRole('row').filter({ hasText: victim.entry_id });
    expect(await row.locator('td > .value').allTextContents()).toEqual([
      'modified',
      String(victim.position),
      victim.entry_id,
      expect.any(String),
      // Whole in the page, cut with an ellipsis on screen (layoutProblems holds the cut to a title).
      expect.stringMatching(/^[0-9a-f]{64}$/),
      expect.stringMatching(/^[0-9a-f]{64}$/),
      `Show entry ${victim.position}`,
    ]);
    await row.getByRole('button', { name: `Show entry ${victim.position}` }).click();
    const entry = page.getByRole('region', { name: 'Entry of a break' });
    await entry.getByRole('heading', { name: `Entry at position ${victim.position}, as stored now` }).waitFor();
    expect(await entry.textContent()).toContain(victim.entry_id);
    await screenshot(page, 'verify-chain');
    for (const viewport of [LAPTOP, PHONE]) {
      await page.setViewportSize(viewport);
      expect({ width: viewport.width, problems: await layoutProblems(page) }).toEqual({
        width: viewport.width,
        problems: [],
      });
    }
    // The break raised a chain alarm: every page now opens under it, as /health reports it.
    await page.setViewportSize(LAPTOP);
    await visit(suite.tab, 'audit-log', 'Audit log');
    await page
      .locator('#chain-alarm')
      .getByText(
        new RegExp(
          `^Chain alarm \\(verification\\): verification found 1 break\\(s\\), the first at position ${victim.position} \\(modified\\)`,
        ),
      )
      .waitFor();
  });

  it('browses the audit log with the endpoint’s filters, a page at a time', async () => {
    const { page } = suite.tab;
    await visit(suite.tab, 'audit-log', 'Audit log');
    await page.getByLabel('Event type').fill('transaction');
    await page.getByLabel('Per page').fill('3');
    await page.getByRole('button', { name: 'Show entries' }).click();
    const sales = (await call(suite.app, 'GET', '/admin/audit-logs?event_type=transaction', { key: TEST_ADMIN_KEY }))
      .body.entries;
    // The entries' own rows: an entry's details may hold tables of their own.
    const positions = () =>
      page
        .getByRole('table', { name: /^Entries/ })
        .locator(':scope > tbody > tr > td:first-child > .value')
        .allTextContents();
    await page.getByText(`Positions ${sales[0].position}–${sales[2].position}`).waitFor();
    expect(await positions()).toEqual(sales.slice(0, 3).map((e: { position: number }) => String(e.position)));
    await screenshot(page, 'audit-log');

    await page.getByRole('button', { name: 'Next page' }).click();
    await page.getByText(`Positions ${sales[3].position}–${sales[3].position}`).waitFor();
    expect(await page.getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true);

    await page.getByRole('button', { name: 'First page' }).click();
    // The page is drawn anew on the way back: filling the form before it is would fill the old one.
    await page.getByText(`Positions ${sales[0].position}–${sales[2].position}`).waitFor();
    await page.getByLabel('Key id (user_id)').fill('key_nobody');
    await page.getByRole('button', { name: 'Show entries' }).click();
    await page.getByText('No entry matches these filters.').waitFor();
  });
});
