import { Clock } from '../../src/platform/clock';
import { call, issueKey, onboardMerchant } from '../support/auth';
import { FixedClock } from '../support/fixed-clock';
import { recordSale } from '../support/sales';
import { DRIVERS } from '../support/test-database';
import { startTestApp, TEST_ADMIN_KEY, type TestApp } from '../support/test-app';

const NOW = '2026-11-21T12:00:00.000Z';
/** Birmingham, AL: symmetrical rounding, permissive (the law allows rounding down). */
const BIRMINGHAM = '35203';
/** Phoenix, AZ: swedish rounding, mandatory, its enactment unconfirmed (seeds: confidence low). */
const PHOENIX = '85004';

describe.each(DRIVERS)("a merchant's rounding policy, and how sure the rule is, over HTTP on %s", (driver) => {
  let app: TestApp;
  let merchantId: string;
  let key: string;

  const setPolicy = (roundingPolicy: unknown, as = key, merchant = merchantId) =>
    call(app, 'PUT', `/merchant/${merchant}/rounding-policy`, { key: as, body: { rounding_policy: roundingPolicy } });

  beforeAll(async () => {
    app = await startTestApp({
      driver,
      override: (builder) => builder.overrideProvider(Clock).useValue(new FixedClock(new Date(NOW))),
    });
    ({ merchant_id: merchantId } = await onboardMerchant(app));
    ({ key } = await issueKey(app, { role: 'merchant', merchant_id: merchantId }));
  });

  afterAll(() => app?.close());

  it('answers WARN with RULE_UNCONFIRMED for a sale under a low-confidence rule, and still rounds as the rule says', async () => {
    const sale = await recordSale(app, key, merchantId, { zip_code: PHOENIX, tax_total_cents: 3 });
    expect(sale.calculation).toMatchObject({
      jurisdiction: 'US-AZ',
      cash_rounding_mode: 'swedish_rounding',
      cash_total_cents: 1005,
    });
    expect(sale.compliance).toEqual({
      compliance_status: 'WARN',
      reasons: [
        {
          code: 'RULE_UNCONFIRMED',
          severity: 'WARN',
          message: expect.stringContaining('not confirmed by official text'),
        },
      ],
    });
    // A rule with official text and a recent check (Alabama: agency guidance, medium) carries no such reason.
    expect((await recordSale(app, key, merchantId, { zip_code: BIRMINGHAM })).compliance).toEqual({
      compliance_status: 'PASS',
      reasons: [],
    });
  });

  it("changes the next sale's result only where the law allows rounding down", async () => {
    const before = await recordSale(app, key, merchantId, { zip_code: BIRMINGHAM, tax_total_cents: 4 });
    expect(before.calculation).toMatchObject({
      cash_total_cents: 1005,
      rounding_policy: { requested: 'rule', applied: 'rule', reason: null },
    });

    const set = await setPolicy('favor_customer');
    expect(set).toMatchObject({
      status: 200,
      body: { merchant_id: merchantId, rounding_policy: 'favor_customer', set_at: NOW },
    });

    // Alabama's rule is permissive: the policy applies, 10.04 goes down to 10.00.
    const permissive = await recordSale(app, key, merchantId, { zip_code: BIRMINGHAM, tax_total_cents: 4 });
    expect(permissive.calculation).toMatchObject({
      cash_total_cents: 1000,
      rounding_delta_cents: -4,
      cash_rounding_mode: 'mandatory_round_down',
      mode_source: 'merchant_policy',
      rounding_policy: { requested: 'favor_customer', applied: 'favor_customer', reason: null },
    });
    expect(permissive.compliance.compliance_status).toBe('PASS');

    // Arizona's rule is mandatory nearest-nickel: the rule wins, and the answer says why.
    const mandatory = await recordSale(app, key, merchantId, { zip_code: PHOENIX, tax_total_cents: 4 });
    expect(mandatory.calculation).toMatchObject({
      cash_total_cents: 1005,
      cash_rounding_mode: 'swedish_rounding',
      mode_source: 'rule',
    });
    expect(mandatory.calculation.rounding_policy).toEqual({
      requested: 'favor_customer',
      applied: 'rule',
      reason: expect.stringMatching(
        /^the mandatory swedish_rounding rule of US-AZ .* does not let a merchant round down; the rule was applied$/,
      ),
    });

    // Back to the rule: the next sale rounds as before; setting it twice records nothing new.
    expect((await setPolicy('rule')).body.rounding_policy).toBe('rule');
    const again = await setPolicy('rule');
    expect(again.body).toEqual({ merchant_id: merchantId, rounding_policy: 'rule', set_at: NOW });
    expect(
      (await recordSale(app, key, merchantId, { zip_code: BIRMINGHAM, tax_total_cents: 4 })).calculation
        .cash_total_cents,
    ).toBe(1005);
  });

  it("refuses another merchant's policy (403), an unknown merchant (404 for an admin) and a policy that does not exist (400)", async () => {
    const other = await onboardMerchant(app);
    expect((await setPolicy('favor_customer', key, other.merchant_id)).status).toBe(403);
    expect((await setPolicy('favor_customer', TEST_ADMIN_KEY, 'm-nobody-here')).body).toMatchObject({
      error: 'NOT_FOUND',
    });
    const bad = await setPolicy('round_up_always');
    expect(bad).toMatchObject({ status: 400, body: { error: 'VALIDATION_ERROR' } });
    // An admin may set it for any merchant.
    expect((await setPolicy('favor_customer', TEST_ADMIN_KEY, other.merchant_id)).status).toBe(200);
  });
});
