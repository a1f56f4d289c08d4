import { Clock } from '../../src/platform/clock';
import { call, issueKey, onboardMerchant } from '../support/auth';
import { FixedClock } from '../support/fixed-clock';
import { ruleAt } from '../support/jurisdiction-rules';
import { recordSale } from '../support/sales';
import { DRIVERS } from '../support/test-database';
import { startTestApp, TEST_ADMIN_KEY, type TestApp } from '../support/test-app';

const NOW = '2026-11-21T12:00:00.000Z';

/** Oregon's bill obliges signs (seeds: pending, no wording); recorded here as an administrator would once it is law, with its wording. */
const OREGON_NOTICE =
  'NOTICE: This business rounds cash transactions to the nearest five cents (ORS 2026 c. 12). Pay the exact amount to avoid rounding.';
const OREGON_RULE = ruleAt({
  state: 'OR',
  rounding_mode: 'symmetrical_rounding',
  enforcement: 'permissive',
  legislation: 'HB 4178 (2026 session)',
  effective_date: '2026-06-01',
  disclosure_required: true,
  disclosure_text: OREGON_NOTICE,
  cash_acceptance_law: true,
  source: ['https://oregon.example.test/hb-4178'],
  notes: 'Recorded by the receipts e2e test.',
  last_verified: '2026-06-01',
  disclosure: { kind: 'receipt', text: OREGON_NOTICE, itemized: false },
});

describe.each(DRIVERS)('receipts over HTTP on %s', (driver) => {
  let app: TestApp;
  let merchantId: string;
  let key: string;

  const sale = (fields: Record<string, unknown> = {}) => recordSale(app, key, merchantId, fields);
  const receipt = (id: string, query = '', as = key) =>
    call(app, 'GET', `/transaction/${id}/receipt${query}`, { key: as });
  const merchantReceipt = async (id: string) => {
    const { status, body } = await receipt(id, '?format=merchant');
    expect(status).toBe(200);
    return body.receipt;
  };

  beforeAll(async () => {
    app = await startTestApp({
      driver,
      override: (builder) => builder.overrideProvider(Clock).useValue(new FixedClock(new Date(NOW))),
    });
    ({ merchant_id: merchantId } = await onboardMerchant(app));
    ({ key } = await issueKey(app, { role: 'merchant', merchant_id: merchantId }));
    expect((await call(app, 'PUT', '/admin/jurisdictions/OR', { key: TEST_ADMIN_KEY, body: OREGON_RULE })).status).toBe(
      201,
    );
  });

  afterAll(() => app?.close());

  describe('format=merchant: the disclosure the state requires', () => {
    it('quotes the wording a rule prescribes (Oregon, as recorded)', async () => {
      const { id } = await sale({ zip_code: '97201' });
      const { disclosure, text } = await merchantReceipt(id);
      expect(disclosure).toEqual({
        text: OREGON_RULE.disclosure_text,
        source: 'jurisdiction',
        required: true,
        kind: 'receipt',
        itemized: false,
        jurisdiction_id: 'US-OR',
        legislation: 'HB 4178 (2026 session)',
      });
      expect(text.endsWith(`\n\n${OREGON_RULE.disclosure_text}`)).toBe(true);
    });

    it("claims no legal requirement where the rule's enactment is unconfirmed (Arizona: mandatory, confidence low)", async () => {
      const { id } = await sale({ zip_code: '85004' });
      expect((await merchantReceipt(id)).disclosure).toEqual({
        text: 'Cash totals are rounded to the nearest 5 cents. Card, EBT and mobile payments are never rounded.',
        source: 'default',
        required: true,
        kind: 'receipt',
        itemized: false,
        jurisdiction_id: 'US-AZ',
        legislation: expect.stringContaining('SB 1108'),
      });
    });

    it("names agency guidance as guidance, not as the law (Alabama: its rule is read in the revenue department's notice)", async () => {
      const { id } = await sale({ zip_code: '35203' });
      expect((await merchantReceipt(id)).disclosure).toMatchObject({
        text: 'Cash totals are rounded to the nearest 5 cents, following state agency guidance in AL. Card, EBT and mobile payments are never rounded.',
        required: false,
        jurisdiction_id: 'US-AL',
      });
    });

    it("says the law requires it only for an enacted rule read in the law's own text (Nevada, as recorded here)", async () => {
      const nevada = ruleAt({
        state: 'NV',
        rounding_mode: 'symmetrical_rounding',
        source_kind: 'statute',
        confidence: 'high',
        last_verified: '2026-11-01',
      });
      // Replaces the seeded record of the same (undated) version: 200.
      expect((await call(app, 'PUT', '/admin/jurisdictions/NV', { key: TEST_ADMIN_KEY, body: nevada })).status).toBe(
        200,
      );
      const { id } = await sale({ zip_code: '89101' });
      expect((await merchantReceipt(id)).disclosure.text).toBe(
        'Cash totals are rounded to the nearest 5 cents, as required by state law in NV. Card, EBT and mobile payments are never rounded.',
      );
      // The same rule read only in a bill's text claims no law.
      const asBill = { ...nevada, source_kind: 'bill_text', confidence: 'medium' };
      expect((await call(app, 'PUT', '/admin/jurisdictions/NV', { key: TEST_ADMIN_KEY, body: asBill })).status).toBe(
        200,
      );
      const { id: second } = await sale({ zip_code: '89101' });
      expect((await merchantReceipt(second)).disclosure.text).toBe(
        'Cash totals are rounded to the nearest 5 cents. Card, EBT and mobile payments are never rounded.',
      );
    });

    it("says a favor_customer merchant's total was rounded down in the customer's favour, where no law prescribes wording", async () => {
      const other = await onboardMerchant(app);
      const { key: otherKey } = await issueKey(app, { role: 'merchant', merchant_id: other.merchant_id });
      const policy = await call(app, 'PUT', `/merchant/${other.merchant_id}/rounding-policy`, {
        key: otherKey,
        body: { rounding_policy: 'favor_customer' },
      });
      expect(policy.status).toBe(200);
      const { id } = await recordSale(app, otherKey, other.merchant_id, { zip_code: '35203', tax_total_cents: 4 });
      const { disclosure, text } = (await receipt(id, '?format=merchant', otherKey)).body.receipt;
      expect(disclosure).toMatchObject({
        text: 'Cash totals are rounded down to a multiple of 5 cents, in the customer’s favour. Card, EBT and mobile payments are never rounded.',
        source: 'default',
        jurisdiction_id: 'US-AL',
      });
      expect(text).toMatch(/^Cash rounding +-\$0\.04$/m);
    });

    it("says the federal default is this service's own, not any agency's (no state law applies)", async () => {
      const { id } = await sale({ zip_code: '07102' });
      expect((await merchantReceipt(id)).disclosure).toMatchObject({
        text: 'Cash totals are rounded to the nearest 5 cents, this service’s default where no state or local law sets a method. Card, EBT and mobile payments are never rounded.',
        jurisdiction_id: 'US',
      });
    });

    it('tells a card customer that the payment was not rounded', async () => {
      const { id } = await sale({ zip_code: '85004', payment_method: 'card' });
      expect((await merchantReceipt(id)).disclosure.text).toBe(
        'Cash totals are rounded to the nearest 5 cents. This payment was not in cash and was not rounded.',
      );
    });

    it('prints the amounts, the rounding and the disclosure as text', async () => {
      const { id } = await sale({ zip_code: '85004', store_id: 's-1', terminal_id: 't-2' });
      const printed = await merchantReceipt(id);
      expect(printed).toMatchObject({ transaction_id: id, type: 'SALE', state: 'completed', created_at: NOW });
      expect(printed.text.split('\n')).toEqual([
        `SALE ${id}`,
        NOW,
        'Store s-1  Terminal t-2',
        'Subtotal                        $10.00',
        'Tax                              $0.03',
        'Total                           $10.03',
        'Cash                            $10.03',
        'Cash rounding                   +$0.02',
        'Cash total                      $10.05',
        '',
        printed.disclosure.text,
      ]);
    });

    it('shows an override as the cash total that settles, beside the rounding', async () => {
      const { id } = await sale({ zip_code: '85004' });
      const override = {
        transaction_id: id,
        employee_id: 'e-1',
        employee_name: 'Ann',
        reason: 'pricing-error',
        new_cash_total_cents: 1000,
      };
      expect((await call(app, 'POST', '/transaction/override', { key, body: override })).status).toBe(201);
      const lines = (await merchantReceipt(id)).text.split('\n');
      expect(lines).toEqual(
        expect.arrayContaining([
          'Cash rounding                   +$0.02',
          'Adjusted by employee            -$0.05',
          'Cash total                      $10.00',
          'Status: OVERRIDDEN',
        ]),
      );
    });

    it('prints receipts of VOID and REFUND records, with negative amounts and the link to the sale', async () => {
      const voided = await sale({ zip_code: '85004' });
      const { body: voidAnswer } = await call(app, 'POST', '/transaction/void', {
        key,
        body: { original_transaction_id: voided.id, void_reason: 'pricing_error', voided_by: 'm-1' },
      });
      const voidReceipt = await merchantReceipt(voidAnswer.transaction.id);
      expect(voidReceipt.text.split('\n').slice(0, 2)).toEqual([
        `VOID ${voidAnswer.transaction.id} of ${voided.id}`,
        NOW,
      ]);
      expect(voidReceipt.text).toContain('Cash total                     -$10.05');
      expect(voidReceipt.disclosure.jurisdiction_id).toBe('US-AZ');
      expect((await merchantReceipt(voided.id)).text).toContain('Status: VOIDED');

      const refunded = await sale({ zip_code: '35203' });
      const { body: refundAnswer } = await call(app, 'POST', '/transaction/refund', {
        key,
        body: { original_transaction_id: refunded.id, refund_amount: 503, void_reason: 'wrong_item', voided_by: 'e-2' },
      });
      const refundReceipt = await merchantReceipt(refundAnswer.transaction.id);
      expect(refundReceipt).toMatchObject({ type: 'REFUND', state: 'completed' });
      expect(refundReceipt.text).toContain('Cash rounding                   -$0.02');
      expect((await merchantReceipt(refunded.id)).text).toContain('Status: PARTIALLY REFUNDED');
    });

    it('is the default format', async () => {
      const { id } = await sale({ zip_code: '85004' });
      const { body } = await receipt(id);
      expect(body).toEqual({ success: true, format: 'merchant', receipt: await merchantReceipt(id) });
    });
  });

  describe('format=audit', () => {
    it('is the full record: chain position, audit hash, fraud score and history', async () => {
      const recorded = await sale({ zip_code: '85004', state: 'AL' });
      const { status, body } = await receipt(recorded.id, '?format=audit');
      expect(status).toBe(200);
      expect(body.format).toBe('audit');
      expect(body.receipt).toEqual((await call(app, 'GET', `/transaction/${recorded.id}`, { key })).body.transaction);
      expect(body.receipt).toMatchObject({
        chain_position: recorded.chain_position,
        auditHash: recorded.auditHash,
        fraud_score: 20,
        risk_level: 'LOW',
        history: [
          {
            event: 'TransactionRecorded',
            chain_position: recorded.chain_position,
            audit_hash: recorded.auditHash,
            recorded_at: NOW,
          },
        ],
      });
    });

    it('may be read by an auditor', async () => {
      const { id } = await sale();
      const auditor = await issueKey(app, { role: 'auditor' });
      const { status, body } = await receipt(id, '?format=audit', auditor.key);
      expect(status).toBe(200);
      expect(body.receipt.id).toBe(id);
    });
  });

  describe('format=pos', () => {
    it('is the raw cent values only', async () => {
      const { id } = await sale({ zip_code: '85004' });
      const { status, body } = await receipt(id, '?format=pos');
      expect(status).toBe(200);
      expect(body).toEqual({
        success: true,
        format: 'pos',
        receipt: {
          transaction_id: id,
          subtotal_cents: 1000,
          tax_total_cents: 3,
          ledger_total_cents: 1003,
          cash_total_cents: 1005,
          rounding_delta_cents: 2,
        },
      });
    });
  });

  it.each([['?format=html'], ['?format='], ['?format=merchant&colour=red']])('refuses %s (400)', async (query) => {
    const { id } = await sale();
    const { status, body } = await receipt(id, query);
    expect(status).toBe(400);
    expect(body.error).toBe('VALIDATION_ERROR');
    expect(body.details.length).toBe(1);
  });

  it("answers an unknown id and another merchant's transaction alike (404)", async () => {
    const { id } = await sale();
    const other = await issueKey(app, { role: 'merchant', merchant_id: (await onboardMerchant(app)).merchant_id });
    expect(await receipt(id, '', other.key)).toMatchObject({
      status: 404,
      body: { error: 'NOT_FOUND', message: `Transaction ${id} not found` },
    });
    expect(await receipt('TXN-2026-11-21-00000000')).toMatchObject({
      status: 404,
      body: { error: 'NOT_FOUND', message: 'Transaction TXN-2026-11-21-00000000 not found' },
    });
  });
});
