import { AsyncProjectionRunner } from '../../src/platform/projections/runner';
import { Clock } from '../../src/platform/clock';
import { EventStore } from '../../src/platform/event-store/event-store.port';
import { DATABASE, type Database } from '../../src/platform/event-store/sql';
import { call, issueKey, onboardMerchant, type Answer } from '../support/auth';
import { FixedClock } from '../support/fixed-clock';
import { recordSale } from '../support/sales';
import { DRIVERS } from '../support/test-database';
import { startTestApp, TEST_ADMIN_KEY, type TestApp } from '../support/test-app';

/** Phoenix, AZ: swedish rounding, mandatory; a total ending in 1, 2, 6, 7 rounds down, 3, 4, 8, 9 up. */
const PHOENIX = '85004';
/** Not the default, so that the answers show the boundaries come from the configuration. */
const SHIFT_CHANGE_HOURS = [7, 14, 21];

interface Merchant {
  merchantId: string;
  key: string;
}

/**
 * Two merchants made through the API. The honest one: 60 sales whose penny endings run evenly
 * 0 to 9, two voids away from any shift change, one override and one refund. The skimming one: 60
 * sales priced to end in 3, 4, 8 or 9 (so rounding always goes up) and 5 rounded up by an explicit
 * mandatory_round_up where the rule rounds down, 10 overrides raising the cash total, 10 voids by
 * one manager right at the 14:00 shift change, and 2 refunds that fail the normalization check.
 * A third merchant makes nothing.
 */
describe.each(DRIVERS)('merchant risk profiles and analytics over HTTP on %s', (driver) => {
  let app: TestApp;
  let db: Database;
  let clock: FixedClock;
  let honest: Merchant;
  let skimmer: Merchant;
  let quiet: Merchant;
  const skimmerVoids: string[] = [];
  const skimmerFailedRefunds: string[] = [];

  const newMerchant = async (name: string): Promise<Merchant> => {
    const { merchant_id: merchantId } = await onboardMerchant(app, { name });
    return { merchantId: merchantId, key: (await issueKey(app, { role: 'merchant', merchant_id: merchantId })).key };
  };
  const setClock = (iso: string) => clock.advance(Date.parse(iso) - clock.now().getTime());
  const minuteLater = () => clock.advance(60_000);
  const created = async (merchant: Merchant, path: string, body: Record<string, unknown>) => {
    const { status, body: answer } = await call(app, 'POST', path, { key: merchant.key, body });
    if (status !== 201) throw new Error(`POST ${path}: expected 201, got ${status} ${JSON.stringify(answer)}`);
    return answer;
  };
  /** A cash sale in Phoenix of $10.00 plus `ending` cents, a minute after the last. */
  const sale = async (
    merchant: Merchant,
    ending: number,
    fields: Record<string, unknown> = {},
  ): Promise<{ id: string; calculation: { cash_total_cents: number } }> => {
    minuteLater();
    return recordSale(app, merchant.key, merchant.merchantId, {
      zip_code: PHOENIX,
      subtotal_cents: 1000 + ending,
      tax_total_cents: 0,
      ...fields,
    });
  };
  const voidSale = async (merchant: Merchant, saleId: string, voidedBy: string) =>
    (
      await created(merchant, '/transaction/void', {
        original_transaction_id: saleId,
        void_reason: 'pricing_error',
        voided_by: voidedBy,
      })
    ).transaction.id as string;
  const override = (
    merchant: Merchant,
    s: Awaited<ReturnType<typeof sale>>,
    delta: number,
    employee: [string, string],
    reason: string,
  ) =>
    created(merchant, '/transaction/override', {
      transaction_id: s.id,
      employee_id: employee[0],
      employee_name: employee[1],
      reason,
      new_cash_total_cents: s.calculation.cash_total_cents + delta,
    });
  const refund = async (merchant: Merchant, saleId: string, refundAmount: number) =>
    (
      await created(merchant, '/transaction/refund', {
        original_transaction_id: saleId,
        refund_amount: refundAmount,
        void_reason: 'defective_product',
        voided_by: 'e-9',
      })
    ).transaction;
  const get = (path: string, key = TEST_ADMIN_KEY): Promise<Answer> => call(app, 'GET', path, { key });
  const ok = async (path: string, key = TEST_ADMIN_KEY) => {
    const { status, body } = await get(path, key);
    expect({ path, status }).toEqual({ path, status: 200 });
    return body;
  };

  beforeAll(async () => {
    clock = new FixedClock(new Date('2026-11-21T08:00:00.000Z'));
    app = await startTestApp({
      driver,
      env: { SHIFT_CHANGE_HOURS: SHIFT_CHANGE_HOURS.join(','), SHIFT_CHANGE_WINDOW_MINUTES: '30' },
      override: (builder) => builder.overrideProvider(Clock).useValue(clock),
    });
    db = app.app.get<Database>(DATABASE);
    honest = await newMerchant('Honest Grocer');
    skimmer = await newMerchant('Skimming Deli');
    quiet = await newMerchant('Quiet Kiosk');

    const honestSales = [];
    for (let i = 0; i < 60; i++) honestSales.push(await sale(honest, i % 10));
    setClock('2026-11-21T09:30:00.000Z');
    await voidSale(honest, honestSales[10].id, 'mgr-a');
    setClock('2026-11-21T10:10:00.000Z');
    await voidSale(honest, honestSales[21].id, 'mgr-b');
    await override(honest, honestSales[33], -5, ['cash-1', 'Cora'], 'pricing-error');
    // $10.03 paid as $10.05; $5.03 back as $5.05: the rounding reverses, as it should.
    await refund(honest, honestSales[43].id, 503);

    setClock('2026-11-21T12:54:00.000Z');
    const skimmed = [];
    for (let i = 0; i < 60; i++) {
      skimmed.push(await sale(skimmer, [3, 4, 8, 9][i % 4]));
      if (i % 12 === 0) await sale(skimmer, 1, { cash_rounding_mode: 'mandatory_round_up' });
    }
    setClock('2026-11-21T13:59:00.000Z');
    for (const s of skimmed.slice(0, 10)) {
      minuteLater();
      skimmerVoids.push(await voidSale(skimmer, s.id, 'mgr-1'));
    }
    for (const s of skimmed.slice(10, 20))
      await override(skimmer, s, 2, ['mgr-1', 'Max'], s === skimmed[10] ? 'manager-discretion' : 'customer-request');
    // $10.03 paid as $10.05; $1.01 back as $1.00: the customer loses on both roundings.
    for (const s of skimmed
      .slice(20, 24)
      .filter((x) => x.calculation.cash_total_cents === 1005)
      .slice(0, 2)) {
      const record = await refund(skimmer, s.id, 101);
      expect(record.reversal.normalization.passed).toBe(false);
      skimmerFailedRefunds.push(record.id);
    }
    // Tests read the async read models once they have caught up with everything above.
    await app.app.get(AsyncProjectionRunner).drain();
  });

  afterAll(() => app?.close());

  it('ranks the skimming merchant first, CRITICAL, and the honest one at NONE or LOW', async () => {
    const overview = await ok('/admin/fraud-overview');
    expect(overview.merchants.map((m: { merchant_id: string }) => m.merchant_id)).toEqual([
      skimmer.merchantId,
      ...[honest.merchantId, quiet.merchantId].sort(),
    ]);
    const [first, ...rest] = overview.merchants;
    expect(first).toMatchObject({
      rank: 1,
      merchant_id: skimmer.merchantId,
      name: 'Skimming Deli',
      fraud_score: 100,
      risk_level: 'CRITICAL',
      sales: 65,
    });
    for (const merchant of rest) expect(merchant.risk_level).toBe('NONE');
    expect(overview.summary).toEqual({
      merchant_count: 3,
      by_level: { NONE: 2, LOW: 0, MEDIUM: 0, HIGH: 0, CRITICAL: 1 },
      mean_score: 33.33,
      p90_score: 100,
    });
    expect(overview.as_of_position).toBe((await app.app.get(EventStore).head()).position);

    const page = await ok('/admin/fraud-overview?limit=1&offset=1');
    expect(page).toMatchObject({
      total: 3,
      limit: 1,
      offset: 1,
      merchants: [{ rank: 2 }],
      summary: { merchant_count: 3 },
    });
  });

  it('profiles the skimming merchant with every signal that gives it away', async () => {
    const profile = await ok(`/merchant/${skimmer.merchantId}/risk-profile`);
    expect(profile.signals.map((s: { code: string; points: number }) => [s.code, s.points])).toEqual([
      ['ROUND_UP_BIAS', 40],
      ['PENNY_ENDINGS_SKEWED', 20],
      ['EXPLICIT_MODE_GAINS', 15],
      ['OVERRIDE_FREQUENCY', 20],
      ['OVERRIDES_RAISE_CASH', 15],
      ['HIGH_VOID_RATE', 20],
      ['REPEATED_NORMALIZATION_FAILURES', 10],
      ['VOIDS_AT_SHIFT_CHANGE', 15],
      ['VOIDS_CONCENTRATED_ON_EMPLOYEE', 10],
    ]);
    expect(profile).toMatchObject({
      merchant_id: skimmer.merchantId,
      name: 'Skimming Deli',
      fraud_score: 100,
      risk_level: 'CRITICAL',
      rounding_analysis: {
        sales: 65,
        cash_sales: 65,
        rounded_up: 65,
        rounded_down: 0,
        up_ratio: 1,
        down_ratio: 0,
        expected_under_honest_rounding: {
          uniform_endings: { rounded_up: 26, rounded_down: 26, up_ratio: 0.5 },
          actual_endings: { rounded_up: 60, rounded_down: 5, up_ratio: 0.9231 },
        },
        round_up_bias: { sample: 65, rounded_up: 65, expected_up: 32.5, z: 8.06 },
        penny_endings: { counts: [0, 5, 0, 15, 15, 0, 0, 0, 15, 15], degrees_of_freedom: 9, leans_to_round_up: true },
        explicit_mode: { sales: 5, favoured_sales: 5, favoured_cents: 25 },
      },
      override_patterns: {
        overrides: 10,
        frequency: 0.1538,
        by_reason: { 'customer-request': 9, 'manager-discretion': 1, 'pricing-error': 0, 'system-error': 0 },
        raised: 10,
        lowered: 0,
        total_delta_cents: 20,
        average_delta_cents: 2,
        top_employees: [{ employee_id: 'mgr-1', employee_name: 'Max', overrides: 10, total_delta_cents: 20 }],
      },
      void_rates: {
        sales: 65,
        voids: 10,
        void_rate: 0.1538,
        refunds: 2,
        normalization_failures: 2,
        normalization_failure_rate: 1,
        shift_change: { hours: SHIFT_CHANGE_HOURS, window_minutes: 30, voids: 10, share: 1, expected_share: 0.125 },
        top_employee: { employee_id: 'mgr-1', voids: 10, share: 1 },
      },
    });
    expect(profile.void_rates.voids_by_hour[14]).toBe(10);
  });

  it('profiles the honest merchant at NONE: rounding as uniform endings predict, few voids, none at a shift change', async () => {
    const profile = await ok(`/merchant/${honest.merchantId}/risk-profile`);
    expect(profile).toMatchObject({
      fraud_score: 0,
      risk_level: 'NONE',
      signals: [],
      rounding_analysis: {
        cash_sales: 60,
        rounded_up: 24,
        rounded_down: 24,
        unchanged: 12,
        up_ratio: 0.5,
        net_rounding_cents: 0,
        expected_under_honest_rounding: {
          uniform_endings: { up_ratio: 0.5 },
          actual_endings: { rounded_up: 24, rounded_down: 24 },
        },
        round_up_bias: { z: 0 },
        penny_endings: { counts: Array(10).fill(6), chi_square: 0 },
      },
      override_patterns: {
        overrides: 1,
        frequency: 0.0167,
        total_delta_cents: -5,
        top_employees: [{ employee_id: 'cash-1', employee_name: 'Cora' }],
      },
      void_rates: { voids: 2, void_rate: 0.0333, refunds: 1, normalization_failures: 0, shift_change: { voids: 0 } },
    });
  });

  it('profiles a merchant without activity at NONE, and refuses unknown and malformed merchants and other keys', async () => {
    expect(await ok(`/merchant/${quiet.merchantId}/risk-profile`)).toMatchObject({
      fraud_score: 0,
      risk_level: 'NONE',
      rounding_analysis: { sales: 0, up_ratio: null },
    });
    expect(await get('/merchant/no-such-merchant/risk-profile')).toMatchObject({
      status: 404,
      body: { error: 'NOT_FOUND' },
    });
    const malformed = await get('/merchant/-bad/risk-profile');
    expect(malformed).toMatchObject({
      status: 400,
      body: { error: 'VALIDATION_ERROR', details: [{ field: 'merchant_id' }] },
    });
    // The spec gives risk profiles and the overview to admins only: a merchant key does not see even its own.
    expect((await get(`/merchant/${honest.merchantId}/risk-profile`, honest.key)).status).toBe(403);
    expect((await get('/admin/fraud-overview', (await issueKey(app, { role: 'auditor' })).key)).status).toBe(403);
    expect(await get('/admin/fraud-overview?limit=1001')).toMatchObject({
      status: 400,
      body: { details: [{ field: 'limit' }] },
    });
  });

  it('flags the skimming merchant’s voids and refunds in the void-abuse analysis, each with the records behind it', async () => {
    const auditor = (await issueKey(app, { role: 'auditor' })).key;
    const abuse = await ok('/analytics/void-abuse', auditor);
    expect(abuse.shift_change).toEqual({ hours: SHIFT_CHANGE_HOURS, window_minutes: 30 });
    expect(abuse.flags.map((f: { merchant_id: string }) => f.merchant_id)).not.toContain(honest.merchantId);
    const flags = Object.fromEntries(abuse.flags.map((f: { code: string }) => [f.code, f]));
    const voids = { record_type: 'VOID', ids: [...skimmerVoids].reverse(), count: 10 };
    expect(flags).toEqual({
      HIGH_VOID_RATE: {
        merchant_id: skimmer.merchantId,
        code: 'HIGH_VOID_RATE',
        points: 20,
        detail: expect.stringContaining('10 of 65 sales'),
        evidence: voids,
      },
      REPEATED_NORMALIZATION_FAILURES: {
        merchant_id: skimmer.merchantId,
        code: 'REPEATED_NORMALIZATION_FAILURES',
        points: 10,
        detail: expect.any(String),
        evidence: { record_type: 'REFUND', ids: [...skimmerFailedRefunds].reverse(), count: 2 },
      },
      VOIDS_AT_SHIFT_CHANGE: {
        merchant_id: skimmer.merchantId,
        code: 'VOIDS_AT_SHIFT_CHANGE',
        points: 15,
        detail: expect.stringContaining('7, 14, 21 UTC'),
        evidence: voids,
      },
      VOIDS_CONCENTRATED_ON_EMPLOYEE: {
        merchant_id: skimmer.merchantId,
        code: 'VOIDS_CONCENTRATED_ON_EMPLOYEE',
        points: 10,
        detail: 'employee mgr-1 authorized 10 of 10 voids',
        evidence: voids,
      },
    });
    expect(abuse.flag_count).toBe(4);
    expect(await ok(`/analytics/void-abuse?merchant_id=${honest.merchantId}`)).toMatchObject({
      merchant_id: honest.merchantId,
      flag_count: 0,
      flags: [],
    });
    expect(await get('/analytics/void-abuse?merchant_id=a%20b')).toMatchObject({
      status: 400,
      body: { details: [{ field: 'merchant_id' }] },
    });
  });

  it('totals voids, amounts and normalization results, merchant by merchant', async () => {
    const analytics = await ok('/analytics/voids');
    expect(analytics.totals).toMatchObject({
      sales: 125,
      voids: 12,
      void_rate: 0.096,
      refunds: 3,
      normalization_failures: 2,
      normalization_failure_rate: 0.6667,
      top_employee: null,
    });
    expect(analytics.merchants.map((m: { merchant_id: string }) => m.merchant_id)).toEqual([
      skimmer.merchantId,
      honest.merchantId,
    ]);
    expect(analytics.merchants[0]).toMatchObject({
      voids: 10,
      void_rate: 0.1538,
      voided_cents: expect.any(Number),
      refunded_cents: 200,
    });
    const honestOnly = await ok(`/analytics/voids?merchant_id=${honest.merchantId}`);
    expect(honestOnly.totals).toMatchObject({
      sales: 60,
      voids: 2,
      refunds: 1,
      refunded_cents: 505,
      normalization_failures: 0,
    });
    expect(honestOnly.totals.voids_by_hour[9] + honestOnly.totals.voids_by_hour[10]).toBe(2);
  });

  it('reports every override with employee, reason, calculated and overridden cash totals and the delta, filtered by merchant and date', async () => {
    const all = await ok('/overrides/report');
    expect(all).toMatchObject({
      total: 11,
      summary: { overrides: 11, raised: 10, lowered: 1, total_delta_cents: 15, average_delta_cents: 1 },
    });
    const report = await ok(
      `/overrides/report?merchant_id=${skimmer.merchantId}&start_date=2026-11-21&end_date=2026-11-21T23:59:59Z&limit=2`,
    );
    expect(report).toMatchObject({
      filters: { merchant_id: skimmer.merchantId, start_date: '2026-11-21', end_date: '2026-11-21T23:59:59Z' },
      total: 10,
      limit: 2,
      summary: { overrides: 10, total_delta_cents: 20 },
    });
    expect(report.overrides[0]).toEqual({
      id: expect.stringMatching(/^OVR-2026-11-21-/),
      merchant_id: skimmer.merchantId,
      transaction_id: expect.stringMatching(/^TXN-2026-11-21-/),
      employee_id: 'mgr-1',
      employee_name: 'Max',
      reason: 'manager-discretion',
      calculated_cash_total_cents: expect.any(Number),
      previous_cash_total_cents: expect.any(Number),
      new_cash_total_cents: expect.any(Number),
      delta_cents: 2,
      created_at: '2026-11-21T14:09:00.000Z',
      auditHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      chain_position: expect.any(Number),
    });
    const first = report.overrides[0];
    expect(first.new_cash_total_cents - first.calculated_cash_total_cents).toBe(2);
    // The record is the one in the chain.
    const [entry] = await db.query<{ hash: string; event_type: string }>(
      'select hash, event_type from events where position = $1',
      [first.chain_position],
    );
    expect(entry).toEqual({ hash: first.auditHash, event_type: 'OverrideApplied' });
    expect(await ok('/overrides/report?start_date=2026-11-22')).toMatchObject({ total: 0, overrides: [] });
  });

  it.each([
    ['start_date=yesterday', 'start_date'],
    ['end_date=2026-11-21T10:00', 'end_date'],
    ['start_date=2026-11-22&end_date=2026-11-21', 'end_date'],
    ['limit=0', 'limit'],
    ['offset=-1', 'offset'],
    ['merchant_id=-x', 'merchant_id'],
    ['employee=x', 'employee'],
  ])('refuses an override report with %s (400 naming %s)', async (query, field) => {
    const { status, body } = await get(`/overrides/report?${query}`);
    expect({ status, error: body.error, fields: body.details.map((d: { field: string }) => d.field) }).toEqual({
      status: 400,
      error: 'VALIDATION_ERROR',
      fields: [field],
    });
  });

  it('keeps its read models in step with the log: counts per merchant, every override and void record', async () => {
    const [sales] = await db.query(
      'select sales, cash_sales, explicit_mode_sales, favoured_sales from rm_risk_sales where merchant_id = $1',
      [skimmer.merchantId],
    );
    expect(sales).toEqual({ sales: 65, cash_sales: 65, explicit_mode_sales: 5, favoured_sales: 5 });
    const overrides = await db.query<{ n: number }>(
      'select count(*)::int as n from rm_overrides where merchant_id = $1',
      [skimmer.merchantId],
    );
    expect(overrides).toEqual([{ n: 10 }]);
    const voids = await db.query<{ record_id: string }>(
      "select record_id from rm_void_records where merchant_id = $1 and type = 'VOID' order by chain_position",
      [skimmer.merchantId],
    );
    expect(voids.map((v) => v.record_id)).toEqual(skimmerVoids);
    const appended = await db.query<{ n: number }>(
      "select count(*)::int as n from events where event_type = 'TransactionVoided' and metadata->>'merchantId' = $1",
      [skimmer.merchantId],
    );
    expect(appended).toEqual([{ n: 10 }]);
  });
});
