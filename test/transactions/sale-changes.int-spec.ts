import { Clock } from '../../src/platform/clock';
import { toStoredEvent } from '../../src/platform/event-store/event-rows';
import { type EventRow, entryHash } from '@crcs/tlog';
import { EventStore } from '../../src/platform/event-store/event-store.port';
import { DATABASE, type Database } from '../../src/platform/event-store/sql';
import { call, issueKey, onboardMerchant, type Answer } from '../support/auth';
import { FixedClock } from '../support/fixed-clock';
import { recordSale } from '../support/sales';
import { DRIVERS } from '../support/test-database';
import { startTestApp, type TestApp } from '../support/test-app';

const NOW = '2026-11-21T12:00:00.000Z';
/** Phoenix, AZ: swedish rounding, so the default sale of $10.03 is $10.05 in cash (delta +2). */
const PHOENIX = '85004';
/** Seattle, WA: symmetrical rounding from 2026-06-11, so $11.02 is $11.00 in cash (delta -2). */
const SEATTLE = '98101';
/** Set by the test app's configuration, so that the threshold is shown to come from it. */
const VOID_THRESHOLD_CENTS = 20_000;

interface Merchant {
  merchantId: string;
  key: string;
  keyId: string;
}

describe.each(DRIVERS)('overrides, voids and refunds over HTTP on %s', (driver) => {
  let app: TestApp;
  let db: Database;
  let clock: FixedClock;
  let shop: Merchant;

  const newMerchant = async (): Promise<Merchant> => {
    const { merchant_id: merchantId } = await onboardMerchant(app);
    const issued = await issueKey(app, { role: 'merchant', merchant_id: merchantId });
    return { merchantId: merchantId, key: issued.key, keyId: issued.api_key.id };
  };
  const sale = async (fields: Record<string, unknown> = {}, merchant = shop): Promise<{ id: string }> =>
    recordSale(app, merchant.key, merchant.merchantId, { zip_code: PHOENIX, cashier_id: 'c-1', ...fields });
  const post = (path: string, body: unknown, options: { key?: string; headers?: Record<string, string> } = {}) =>
    call(app, 'POST', path, { key: options.key ?? shop.key, body, headers: options.headers });
  const created = async (answer: Promise<Answer>) => {
    const { status, body } = await answer;
    expect({ status, body }).toEqual({ status: 201, body: expect.objectContaining({ success: true }) });
    return body;
  };
  const detail = async (id: string, key = shop.key) =>
    (await call(app, 'GET', `/transaction/${id}`, { key })).body.transaction;
  const streamOf = (saleId: string) =>
    db.query<EventRow>('select * from events where stream_id = $1 order by stream_revision', [`transaction-${saleId}`]);
  const head = async () => (await app.app.get(EventStore).head()).position;
  const voidBody = (originalTransactionId: string, fields: Record<string, unknown> = {}) => ({
    original_transaction_id: originalTransactionId,
    void_reason: 'pricing_error',
    voided_by: 'manager-1',
    ...fields,
  });
  const refundBody = (originalTransactionId: string, refundAmount: number, fields: Record<string, unknown> = {}) => ({
    original_transaction_id: originalTransactionId,
    refund_amount: refundAmount,
    void_reason: 'defective_product',
    voided_by: 'e-3',
    ...fields,
  });
  const overrideBody = (transactionId: string, newCashTotalCents: number, fields: Record<string, unknown> = {}) => ({
    transaction_id: transactionId,
    employee_id: 'e-9',
    employee_name: '  Zoë O’Brien-Ng ',
    reason: 'manager-discretion',
    new_cash_total_cents: newCashTotalCents,
    ...fields,
  });
  /** The error, and nothing appended to the log. */
  const refused = async (answer: () => Promise<Answer>, status: number, error: string) => {
    const before = await head();
    const { status: actual, body } = await answer();
    expect({ status: actual, error: body.error }).toEqual({ status, error });
    expect(await head()).toBe(before);
    return body;
  };

  beforeAll(async () => {
    clock = new FixedClock(new Date(NOW));
    app = await startTestApp({
      driver,
      env: { VOID_AMOUNT_THRESHOLD_CENTS: String(VOID_THRESHOLD_CENTS) },
      override: (builder) => builder.overrideProvider(Clock).useValue(clock),
    });
    db = app.app.get<Database>(DATABASE);
    shop = await newMerchant();
  });

  afterAll(() => app?.close());

  describe('POST /transaction/override', () => {
    it('records the override with the employee verbatim, and settles the sale at the new cash total', async () => {
      const original = await sale();
      const body = await created(
        post('/transaction/override', overrideBody(original.id, 1000), { headers: { 'x-request-id': 'override-1' } }),
      );
      expect(body.override).toEqual({
        id: expect.stringMatching(/^OVR-2026-11-21-[0-9A-Z]{8}$/),
        transaction_id: original.id,
        employee_id: 'e-9',
        employee_name: '  Zoë O’Brien-Ng ',
        reason: 'manager-discretion',
        calculated_cash_total_cents: 1005,
        previous_cash_total_cents: 1005,
        new_cash_total_cents: 1000,
        rounding_delta_cents: -3,
        created_at: NOW,
        auditHash: expect.stringMatching(/^[0-9a-f]{64}$/),
        chain_position: expect.any(Number),
      });
      expect(body.original).toMatchObject({
        id: original.id,
        state: 'overridden',
        calculation: { ledger_total_cents: 1003, cash_total_cents: 1000, rounding_delta_cents: -3 },
        original_calculation: { cash_total_cents: 1005, rounding_delta_cents: 2 },
        overrides: [body.override],
        refundable_cents: 1000,
      });

      const [recorded, overridden] = await streamOf(original.id);
      expect(recorded.event_type).toBe('TransactionRecorded');
      expect(overridden).toMatchObject({
        event_type: 'OverrideApplied',
        stream_revision: 2,
        hash: body.override.auditHash,
      });
      expect(entryHash(toStoredEvent(overridden))).toBe(body.override.auditHash);
      expect(overridden.data).toMatchObject({
        override_id: body.override.id,
        employee_name: '  Zoë O’Brien-Ng ',
        new_cash_total_cents: 1000,
      });
      expect(overridden.metadata).toMatchObject({
        correlationId: 'override-1',
        actor: { keyId: shop.keyId, role: 'merchant' },
        merchantId: shop.merchantId,
      });

      const shown = await detail(original.id);
      expect(shown).toEqual({ ...body.original, history: expect.any(Array) });
      expect(shown.history.map((entry: { event: string }) => entry.event)).toEqual([
        'TransactionRecorded',
        'OverrideApplied',
      ]);
      const listed = (
        await call(app, 'GET', `/transactions?type=SALE&limit=1000&min_position=${body.override.chain_position}`, {
          key: shop.key,
        })
      ).body.transactions;
      expect(listed.find((t: { id: string }) => t.id === original.id).calculation.cash_total_cents).toBe(1000);
    });

    it('settles at the latest of several overrides', async () => {
      const original = await sale();
      await created(post('/transaction/override', overrideBody(original.id, 1000)));
      const second = await created(
        post('/transaction/override', overrideBody(original.id, 1007, { reason: 'pricing-error' })),
      );
      expect(second.override).toMatchObject({
        calculated_cash_total_cents: 1005,
        previous_cash_total_cents: 1000,
        new_cash_total_cents: 1007,
      });
      expect(second.original).toMatchObject({
        calculation: { cash_total_cents: 1007, rounding_delta_cents: 4 },
        original_calculation: { cash_total_cents: 1005 },
      });
      expect(second.original.overrides).toHaveLength(2);
    });

    it('refuses an override that moves the price (422), writing nothing, so no refund can pass the price either', async () => {
      const original = await sale();
      const body = await refused(
        () => post('/transaction/override', overrideBody(original.id, 100_000_000_000)),
        422,
        'OVERRIDE_POLICY_VIOLATION',
      );
      expect(body.message).toContain('between 999 and 1007 cents');
      await refused(
        () => post('/transaction/override', overrideBody(original.id, 1008, { reason: 'system-error' })),
        422,
        'OVERRIDE_POLICY_VIOLATION',
      );
      await refused(
        () => post('/transaction/override', overrideBody(original.id, 998, { reason: 'customer-request' })),
        422,
        'OVERRIDE_POLICY_VIOLATION',
      );
      await refused(
        () => post('/transaction/refund', refundBody(original.id, 99_999_999_999)),
        409,
        'REFUND_EXCEEDS_PAID',
      );
      expect((await detail(original.id)).calculation.cash_total_cents).toBe(1005);
      // A card sale: the override may not raise it past its price plus 4 cents, so a refund cannot either.
      const card = await sale({ payment_method: 'card' });
      await refused(
        () => post('/transaction/override', overrideBody(card.id, 50_000, { reason: 'pricing-error' })),
        422,
        'OVERRIDE_POLICY_VIOLATION',
      );
      await refused(() => post('/transaction/refund', refundBody(card.id, 50_000)), 409, 'REFUND_EXCEEDS_PAID');
      await created(post('/transaction/override', overrideBody(card.id, 0, { reason: 'pricing-error' })));
    });

    it('refuses a voided sale (409) and one with refunds (409)', async () => {
      const voided = await sale();
      await created(post('/transaction/void', voidBody(voided.id)));
      await refused(() => post('/transaction/override', overrideBody(voided.id, 1000)), 409, 'ALREADY_VOIDED');
      const refunded = await sale();
      await created(post('/transaction/refund', refundBody(refunded.id, 100)));
      await refused(() => post('/transaction/override', overrideBody(refunded.id, 1000)), 409, 'ALREADY_REFUNDED');
    });
  });

  describe('POST /transaction/void', () => {
    it('appends a VOID record mirroring the sale, linked to it, and the sale shows it is voided', async () => {
      const original = await sale({ store_id: 's-1' });
      const body = await created(post('/transaction/void', voidBody(original.id)));
      const record = body.transaction;
      expect(record).toMatchObject({
        id: expect.stringMatching(/^TXN-2026-11-21-[0-9A-Z]{8}$/),
        type: 'VOID',
        state: 'completed',
        original_transaction_id: original.id,
        merchant_id: shop.merchantId,
        store_id: 's-1',
        calculation: {
          subtotal_cents: -1000,
          tax_total_cents: -3,
          ledger_total_cents: -1003,
          cash_total_cents: -1005,
          rounding_delta_cents: -2,
          jurisdiction: 'US-AZ',
        },
        reversal: {
          void_reason: 'pricing_error',
          voided_by: 'manager-1',
          refund_amount_cents: null,
          normalization: null,
        },
        auditHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      });
      expect(record.id).not.toBe(original.id);
      expect(body.original).toMatchObject({
        id: original.id,
        state: 'voided',
        void_transaction_id: record.id,
        refundable_cents: 0,
      });

      // One event, on the sale's stream: the void is decided against the sale's history and appended atomically.
      const [, voided] = await streamOf(original.id);
      expect(voided).toMatchObject({ event_type: 'TransactionVoided', stream_revision: 2, hash: record.auditHash });
      expect(Number(voided.position)).toBe(record.chain_position);
      expect(voided.data).toMatchObject({
        transaction_id: record.id,
        transaction_type: 'VOID',
        original_transaction_id: original.id,
        voided_by: 'manager-1',
      });
      expect(await streamOf(record.id)).toEqual([]);

      expect(await detail(record.id)).toEqual({
        ...record,
        history: [expect.objectContaining({ event: 'TransactionVoided', audit_hash: record.auditHash })],
      });
      expect((await detail(original.id)).state).toBe('voided');
      const voids = (
        await call(app, 'GET', `/transactions?type=VOID&limit=1000&min_position=${record.chain_position}`, {
          key: shop.key,
        })
      ).body.transactions;
      expect(voids.map((t: { id: string }) => t.id)).toContain(record.id);
    });

    it('voids a sale once: the second void is a 409 and appends nothing', async () => {
      const original = await sale();
      await created(post('/transaction/void', voidBody(original.id)));
      const body = await refused(() => post('/transaction/void', voidBody(original.id)), 409, 'ALREADY_VOIDED');
      expect(body.message).toBe(`Transaction ${original.id} has already been voided`);
    });

    it('lets one of two concurrent voids through, and answers the other 409', async () => {
      const original = await sale();
      const answers = await Promise.all([
        post('/transaction/void', voidBody(original.id)),
        post('/transaction/void', voidBody(original.id)),
      ]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
      expect((await streamOf(original.id)).map((event) => event.event_type)).toEqual([
        'TransactionRecorded',
        'TransactionVoided',
      ]);
    });

    it.each([
      ['void', (id: string) => voidBody(id), 'TransactionVoided'],
      ['refund', (id: string) => refundBody(id, 1005), 'RefundIssued'],
    ] as const)(
      'answers 20 concurrent twins of a %s with the first answer, never its business error',
      async (operation, body, event) => {
        const original = await sale();
        const answers = await Promise.all(
          Array.from({ length: 20 }, () =>
            post(`/transaction/${operation}`, body(original.id), {
              headers: { 'idempotency-key': `twins-${operation}-${original.id}` },
            }),
          ),
        );
        expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(201));
        for (const answer of answers) expect(answer.body).toEqual(answers[0].body);
        expect((await streamOf(original.id)).map((row) => row.event_type)).toEqual(['TransactionRecorded', event]);
      },
    );

    it('refuses a void past the time limit (422, time_limit)', async () => {
      const original = await sale();
      clock.advance(24 * 60 * 60_000 + 60_000);
      try {
        const body = await refused(
          () => post('/transaction/void', voidBody(original.id)),
          422,
          'VOID_POLICY_VIOLATION',
        );
        expect(body.message).toMatch(
          /^Void refused by the time_limit policy \(the sale is 1441 minutes old; a void is allowed within 1440 minutes/,
        );
      } finally {
        clock.advance(-(24 * 60 * 60_000 + 60_000));
      }
    });

    it('refuses a cash total above the configured threshold (422, amount_threshold)', async () => {
      const large = await sale({ subtotal_cents: VOID_THRESHOLD_CENTS, tax_total_cents: 3 });
      const body = await refused(() => post('/transaction/void', voidBody(large.id)), 422, 'VOID_POLICY_VIOLATION');
      expect(body.message).toBe(
        'Void refused by the amount_threshold policy (the cash total $200.05 is above the $200.00 a void may cancel)',
      );
      await created(
        post(
          '/transaction/void',
          voidBody((await sale({ subtotal_cents: VOID_THRESHOLD_CENTS, tax_total_cents: 0 })).id),
        ),
      );
    });

    it('refuses the reasons whose policy fails (422, reason)', async () => {
      const original = await sale();
      clock.advance(31 * 60_000);
      try {
        const late = await refused(
          () => post('/transaction/void', voidBody(original.id, { void_reason: 'customer_changed_mind' })),
          422,
          'VOID_POLICY_VIOLATION',
        );
        expect(late.message).toContain('reason policy (customer_changed_mind is a void reason within 30 minutes');
      } finally {
        clock.advance(-31 * 60_000);
      }
      const own = await refused(
        () => post('/transaction/void', voidBody(original.id, { void_reason: 'employee_error', voided_by: 'c-1' })),
        422,
        'VOID_POLICY_VIOLATION',
      );
      expect(own.message).toContain(
        "reason policy (an employee_error void must be authorized by another employee than the sale's cashier c-1)",
      );
      await created(
        post('/transaction/void', voidBody(original.id, { void_reason: 'employee_error', voided_by: 'manager-1' })),
      );
    });

    it('refuses to void a VOID record (409)', async () => {
      const { transaction } = await created(post('/transaction/void', voidBody((await sale()).id)));
      const body = await refused(() => post('/transaction/void', voidBody(transaction.id)), 409, 'NOT_A_SALE');
      expect(body.message).toContain('is a VOID record');
    });
  });

  describe('POST /transaction/refund', () => {
    it('refunds in full: a REFUND record mirroring the sale, normalization passed, the sale refunded', async () => {
      const original = await sale();
      const body = await created(post('/transaction/refund', refundBody(original.id, 1005)));
      expect(body.transaction).toMatchObject({
        type: 'REFUND',
        original_transaction_id: original.id,
        calculation: {
          subtotal_cents: -1000,
          tax_total_cents: -3,
          ledger_total_cents: -1003,
          cash_total_cents: -1005,
          rounding_delta_cents: -2,
        },
        reversal: {
          void_reason: 'defective_product',
          voided_by: 'e-3',
          refund_amount_cents: 1005,
          normalization: { passed: true, original_rounding_delta_cents: 2, refund_rounding_delta_cents: -2 },
        },
        compliance: { compliance_status: 'PASS', reasons: [] },
      });
      expect(body.original).toMatchObject({
        state: 'refunded',
        refund_transaction_ids: [body.transaction.id],
        refunded_cents: 1005,
        refundable_cents: 0,
      });
      const [, refunded] = await streamOf(original.id);
      expect(refunded).toMatchObject({ event_type: 'RefundIssued', hash: body.transaction.auditHash });
      expect(refunded.data.normalization).toEqual({
        passed: true,
        original_rounding_delta_cents: 2,
        refund_rounding_delta_cents: -2,
      });
    });

    it('refunds in parts, partially_refunded until the rest is refunded', async () => {
      const original = await sale();
      const first = await created(post('/transaction/refund', refundBody(original.id, 503)));
      expect(first.transaction.calculation).toMatchObject({
        ledger_total_cents: -503,
        cash_total_cents: -505,
        rounding_delta_cents: -2,
      });
      expect(first.original).toMatchObject({ state: 'partially_refunded', refunded_cents: 505, refundable_cents: 500 });
      const rest = await created(
        post('/transaction/refund', refundBody(original.id, 500, { void_reason: 'wrong_item' })),
      );
      expect(rest.original).toMatchObject({ state: 'refunded', refunded_cents: 1005, refundable_cents: 0 });
      expect(rest.original.refund_transaction_ids).toEqual([first.transaction.id, rest.transaction.id]);
      const refunds = (
        await call(app, 'GET', `/transactions?type=REFUND&limit=1000&min_position=${rest.transaction.chain_position}`, {
          key: shop.key,
        })
      ).body.transactions;
      expect(
        refunds.filter((t: { original_transaction_id: string }) => t.original_transaction_id === original.id),
      ).toHaveLength(2);
    });

    it('flags a failed normalization check in the answer and the audit trail, and refunds anyway', async () => {
      const original = await sale();
      const body = await created(post('/transaction/refund', refundBody(original.id, 501)));
      expect(body.transaction).toMatchObject({
        calculation: { ledger_total_cents: -501, cash_total_cents: -500, rounding_delta_cents: 1 },
        reversal: {
          normalization: { passed: false, original_rounding_delta_cents: 2, refund_rounding_delta_cents: 1 },
        },
        compliance: {
          compliance_status: 'WARN',
          reasons: [expect.objectContaining({ code: 'REFUND_NORMALIZATION_FAILED', severity: 'WARN' })],
        },
      });
      const [, refunded] = await streamOf(original.id);
      expect(refunded.data).toMatchObject({
        normalization: { passed: false },
        compliance: { compliance_status: 'WARN' },
      });
    });

    it('refuses refunds beyond what was paid (409), and after a void (409)', async () => {
      const original = await sale();
      await refused(() => post('/transaction/refund', refundBody(original.id, 1006)), 409, 'REFUND_EXCEEDS_PAID');
      await created(post('/transaction/refund', refundBody(original.id, 1000)));
      const body = await refused(
        () => post('/transaction/refund', refundBody(original.id, 6)),
        409,
        'REFUND_EXCEEDS_PAID',
      );
      expect(body.message).toBe(
        `A refund of 6 cents exceeds the 5 cents still refundable on transaction ${original.id}`,
      );
      const voided = await sale();
      await created(post('/transaction/void', voidBody(voided.id)));
      await refused(() => post('/transaction/refund', refundBody(voided.id, 100)), 409, 'ALREADY_VOIDED');
      await refused(() => post('/transaction/void', voidBody(original.id)), 409, 'ALREADY_REFUNDED');
    });

    it('refuses refunds whose cash rounds to $0.00 (422): one-cent refunds neither empty the sale nor block its void', async () => {
      // $10.00 and $1.02 of tax in Seattle: $11.00 in cash. 1 and 2 cents round to nothing there.
      const original = await sale({ zip_code: SEATTLE, subtotal_cents: 1000, tax_total_cents: 102 });
      for (const cents of [1, 2, 1]) {
        const body = await refused(
          () => post('/transaction/refund', refundBody(original.id, cents)),
          422,
          'REFUND_ROUNDS_TO_ZERO',
        );
        expect(body.message).toBe(
          `A cash refund of ${cents} cents rounds to $0.00 under symmetrical_rounding: refund at least 3 cents, or the 1100 cents still refundable at once`,
        );
      }
      expect(await detail(original.id)).toMatchObject({
        state: 'completed',
        refunded_cents: 0,
        refundable_cents: 1100,
      });
      expect(await streamOf(original.id)).toHaveLength(1);
      const voided = await created(post('/transaction/void', voidBody(original.id)));
      expect(voided.original.state).toBe('voided');
    });

    it('caps a partial refund by the price not yet refunded (409), and refunds the rest of the cash at once', async () => {
      // 32 cents in Phoenix are 30 in cash; each 7-cent refund takes 7 cents off the price and hands back 5.
      const original = await sale({ subtotal_cents: 30, tax_total_cents: 2 });
      for (let i = 0; i < 4; i++) await created(post('/transaction/refund', refundBody(original.id, 7)));
      expect(await detail(original.id)).toMatchObject({
        state: 'partially_refunded',
        refunded_cents: 20,
        refundable_cents: 10,
      });
      const body = await refused(
        () => post('/transaction/refund', refundBody(original.id, 7)),
        409,
        'REFUND_EXCEEDS_PAID',
      );
      expect(body.message).toBe(
        `A partial refund of 7 cents exceeds the 4 cents of the price not yet refunded on transaction ${original.id}; refund the 10 cents still refundable at once`,
      );
      const rest = await created(post('/transaction/refund', refundBody(original.id, 10)));
      expect(rest.transaction.calculation).toMatchObject({
        subtotal_cents: -3,
        tax_total_cents: -1,
        ledger_total_cents: -4,
        cash_total_cents: -10,
      });
      expect(rest.original).toMatchObject({ state: 'refunded', refunded_cents: 30, refundable_cents: 0 });
    });

    it('refunds up to the overridden cash total', async () => {
      const original = await sale();
      await created(post('/transaction/override', overrideBody(original.id, 1000)));
      await refused(() => post('/transaction/refund', refundBody(original.id, 1005)), 409, 'REFUND_EXCEEDS_PAID');
      const body = await created(post('/transaction/refund', refundBody(original.id, 1000)));
      expect(body.transaction.calculation).toMatchObject({
        ledger_total_cents: -1003,
        cash_total_cents: -1000,
        rounding_delta_cents: 3,
      });
      expect(body.original.state).toBe('refunded');
    });
  });

  describe('every operation', () => {
    const operations = [
      ['override', (id: string) => overrideBody(id, 1000)],
      ['void', (id: string) => voidBody(id)],
      ['refund', (id: string) => refundBody(id, 100)],
    ] as const;

    it.each(operations)("%s: an unknown id is a 404, and so is another merchant's sale", async (operation, body) => {
      const unknown = await refused(
        () => post(`/transaction/${operation}`, body('TXN-2026-11-21-00000000')),
        404,
        'NOT_FOUND',
      );
      expect(unknown.message).toBe('Transaction TXN-2026-11-21-00000000 not found');
      const theirs = await sale({}, await newMerchant());
      const other = await refused(() => post(`/transaction/${operation}`, body(theirs.id)), 404, 'NOT_FOUND');
      expect(other).toEqual({ error: 'NOT_FOUND', message: `Transaction ${theirs.id} not found` });
      expect(await streamOf(theirs.id)).toHaveLength(1);
    });

    it.each(operations)("%s: a partner may act on its own merchant's sale", async (operation, body) => {
      const partner = await issueKey(app, { role: 'partner', environment: 'sandbox' });
      const { merchant_id: merchantId } = await onboardMerchant(app, {}, partner.key);
      const original = await recordSale(app, partner.key, merchantId);
      expect((await post(`/transaction/${operation}`, body(original.id), { key: partner.key })).status).toBe(201);
    });

    it.each([
      ['override', {}, ['employee_id', 'employee_name', 'new_cash_total_cents', 'reason', 'transaction_id']],
      [
        'override',
        { transaction_id: 'TXN-1', employee_id: '', employee_name: '   ', reason: 'whim', new_cash_total_cents: -1 },
        ['employee_id', 'employee_name', 'new_cash_total_cents', 'reason', 'transaction_id'],
      ],
      [
        'override',
        { ...overrideBody('TXN-2026-11-21-00000000', 10.5), colour: 'red' },
        ['colour', 'new_cash_total_cents'],
      ],
      ['void', {}, ['original_transaction_id', 'void_reason', 'voided_by']],
      [
        'void',
        { original_transaction_id: 7, void_reason: 'defective_product', voided_by: 'x'.repeat(65) },
        ['original_transaction_id', 'void_reason', 'voided_by'],
      ],
      ['refund', {}, ['original_transaction_id', 'refund_amount', 'void_reason', 'voided_by']],
      [
        'refund',
        refundBody('TXN-2026-11-21-00000000', 0, { void_reason: 'pricing_error' }),
        ['refund_amount', 'void_reason'],
      ],
      ['refund', { ...refundBody('TXN-2026-11-21-00000000', 1), refund_amount: '500' }, ['refund_amount']],
    ])('%s: %j is a 400 naming each bad field', async (operation, body, fields) => {
      const answer = await refused(() => post(`/transaction/${operation}`, body), 400, 'VALIDATION_ERROR');
      expect(answer.details.map((detail: { field: string }) => detail.field).sort()).toEqual(fields);
    });

    it.each(operations)(
      '%s: takes an Idempotency-Key, answering a retry with the first answer and no second event',
      async (operation, body) => {
        const original = await sale();
        const first = await post(`/transaction/${operation}`, body(original.id), {
          headers: { 'idempotency-key': `${operation}-retry` },
        });
        const again = await post(`/transaction/${operation}`, body(original.id), {
          headers: { 'idempotency-key': `${operation}-retry` },
        });
        expect([first.status, again.status]).toEqual([201, 201]);
        expect(JSON.stringify(again.body)).toBe(JSON.stringify(first.body));
        expect(again.headers.get('idempotent-replayed')).toBe('true');
        expect(await streamOf(original.id)).toHaveLength(2);
        const reused = await post(`/transaction/${operation}`, body('TXN-2026-11-21-00000000'), {
          headers: { 'idempotency-key': `${operation}-retry` },
        });
        expect([reused.status, reused.body.error]).toEqual([409, 'IDEMPOTENCY_KEY_REUSED']);
      },
    );
  });
});
