import type { Page } from 'playwright-core';
import { call, issueKey, onboardMerchant, uniqueId } from '../support/auth';
import { recordSale } from '../support/sales';
import { TEST_ADMIN_KEY } from '../support/test-app';
import { closeChecked, LAPTOP, openTab, PHONE, portalSuite, screenshot, signIn } from './browser';
import { layoutProblems } from './layout';

const SIZES = { laptop: LAPTOP, phone: PHONE };

/**
 * Some pages show their widest tables only after a button: what to press there, by route. Every
 * other page is checked as it arrives, so a page added later is held to the same without a line here.
 */
const ON_ARRIVAL: Record<string, (page: Page) => Promise<void>> = {
  verify: (page) => page.getByRole('button', { name: 'Run verification' }).click(),
};

/** Pages whose phone screenshot their own suite takes, with what this suite's service lacks (chain.e2e-spec: witnesses cosigning and refusing). */
const OWN_PHONE_SCREENSHOT = ['chain'];

/**
 * Every page of the portal, found from the admin's page list and the links inside each page, read
 * as an admin and as an auditor (who also opens the admin pages, which refuse it) at one screen
 * size, with the service's own data: it must read as drawn, by `layoutProblems`. One suite per size
 * (layout-laptop.e2e-spec.ts, layout-phone.e2e-spec.ts), so that the two run side by side.
 */
export function describeLayout(size: keyof typeof SIZES): void {
  describe(`every portal page reads well on a ${size}`, () => {
    let auditorKey: string;
    let routes: string[];
    // A webhook endpoint on this machine, as a developer's set-up has one: its deliveries fail and are retried.
    const suite = portalSuite({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
    const origin = () => new URL(suite.app.baseUrl).origin;

    beforeAll(async () => {
      await seed();
      auditorKey = (
        await issueKey(suite.app, { role: 'auditor', name: 'Compliance review by the state auditor’s office' })
      ).key;
      const tab = await openTab(suite.browser, suite.app);
      await signIn(tab, suite.app, TEST_ADMIN_KEY);
      routes = await findRoutes(tab.page);
      await closeChecked(tab);
    });

    /** Data with the widths real data has: long names, ids of every kind, overrides, voids and refunds, webhook deliveries. */
    async function seed() {
      const endpoint = await call(suite.app, 'POST', '/webhooks/endpoints', {
        key: TEST_ADMIN_KEY,
        body: {
          url: 'http://127.0.0.1:9/hooks/cash-rounding/springfield-downtown-convenience?source=crcs',
          event_types: [
            'transaction.voided',
            'transaction.refunded',
            'transaction.overridden',
            'refund.normalization_failed',
          ],
          description: 'Back office of Springfield Downtown Convenience & Deli',
        },
      });
      if (endpoint.status !== 201)
        throw new Error(`webhook endpoint: ${endpoint.status} ${JSON.stringify(endpoint.body)}`);
      for (const [id, name] of [
        ['springfield-downtown-convenience', 'Springfield Downtown Convenience & Deli'],
        ['corner_deli_0042', 'Corner Deli'],
      ]) {
        const merchantId = uniqueId(id);
        await onboardMerchant(suite.app, { merchant_id: merchantId, name });
        const { key } = await issueKey(suite.app, {
          role: 'merchant',
          merchant_id: merchantId,
          name: 'Lane 1 register by the front door',
        });
        const sales = [];
        for (const [i, zip] of ['98101', '85004', '97201', '98101', '10001', '85004'].entries()) {
          sales.push(
            await recordSale(suite.app, key, merchantId, {
              subtotal_cents: 1001 + 7 * i,
              tax_total_cents: 88,
              zip_code: zip,
              cashier_id: `cashier-${i % 2}`,
            }),
          );
        }
        const change = async (path: string, body: object) => {
          const answer = await call(suite.app, 'POST', path, { key, body });
          if (answer.status !== 201) throw new Error(`${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
        };
        await change('/transaction/override', {
          transaction_id: sales[0].id,
          employee_id: 'mgr-2',
          employee_name: 'Zoë O’Brien-Ng',
          reason: 'pricing-error',
          new_cash_total_cents: 1000,
        });
        await change('/transaction/void', {
          original_transaction_id: sales[1].id,
          void_reason: 'pricing_error',
          voided_by: 'manager-1',
        });
        await change('/transaction/refund', {
          original_transaction_id: sales[2].id,
          refund_amount: 503,
          void_reason: 'defective_product',
          voided_by: 'e-3',
        });
      }
      await issueKey(suite.app, { role: 'partner', name: 'Point-of-sale integration partner, production' });
    }

    /** Opens a route afresh and waits until its regions have loaded and the network is quiet. */
    async function open(page: Page, route: string) {
      await page.goto('about:blank');
      await page.goto(`${origin()}/portal/#/${route}`);
      await page.locator('main h1').waitFor();
      await ON_ARRIVAL[route.split('?')[0]]?.(page);
      await page.waitForLoadState('networkidle');
      await page.locator('.loading').first().waitFor({ state: 'detached' });
      // What is folded away is still part of the page: a reader may unfold it.
      await page
        .locator('details:not([open]) > summary')
        .evaluateAll((summaries) => summaries.forEach((summary) => summary.parentElement!.setAttribute('open', '')));
    }

    /** The admin's page list, and one link of each other route the pages link to (a merchant's risk profile). */
    async function findRoutes(page: Page): Promise<string[]> {
      const links = () =>
        page.locator('a[href^="#/"]').evaluateAll((anchors) => anchors.map((a) => a.getAttribute('href')!.slice(2)));
      const found = await links();
      for (const route of [...found]) {
        await open(page, route);
        for (const link of await links())
          if (
            !found.some(
              (known) =>
                known === link ||
                (link.includes('?') && known.split('?')[0] === link.split('?')[0] && known.includes('?')),
            )
          )
            found.push(link);
      }
      return found;
    }

    /** For the README: the page's first table or chart in view, below its forms. */
    async function phoneScreenshot(page: Page, route: string) {
      const data = page.locator('main .table-wrap, main .chart, main .tiles').first();
      if (await data.count()) await data.evaluate((element) => element.scrollIntoView({ block: 'start' }));
      await screenshot(page, `phone-${route.split('?')[0]}`);
    }

    it('finds every page: the admin’s page list, and the pages linked from them', () => {
      expect(routes).toEqual(
        expect.arrayContaining([
          'merchants',
          'keys',
          'verify',
          'audit-log',
          expect.stringMatching(/^risk-profile\?merchant_id=/),
        ]),
      );
    });

    it.each(['an admin', 'an auditor'] as const)(
      `as %s on a ${size}: no word broken mid-word, nothing wider than the screen, no text too small or drawn over, no “undefined”`,
      async (who) => {
        const { page } = suite.tab;
        await page.setViewportSize(SIZES[size]);
        const problems: Record<string, string[]> = {};
        await page.goto(`${origin()}/portal/`);
        await page.getByRole('heading', { name: 'Sign in' }).waitFor();
        problems['sign-in'] = await layoutProblems(page);
        await signIn(suite.tab, suite.app, who === 'an admin' ? TEST_ADMIN_KEY : auditorKey);
        for (const route of routes) {
          await open(page, route);
          problems[route] = await layoutProblems(page);
          if (who === 'an admin' && size === 'phone' && !OWN_PHONE_SCREENSHOT.includes(route))
            await phoneScreenshot(page, route);
        }
        // The first few of each page say enough; the count says how many more.
        const shown = Object.entries(problems)
          .filter(([, found]) => found.length > 0)
          .map(([route, found]) => [
            route,
            found.length > 12 ? [...found.slice(0, 12), `and ${found.length - 12} more`] : found,
          ]);
        expect(Object.fromEntries(shown)).toEqual({});
        // Some twenty pages, each opened afresh and measured, on a machine that may be busy.
      },
      240_000,
    );
  });
}
