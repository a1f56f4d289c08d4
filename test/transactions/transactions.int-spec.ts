import { Clock } from '../../src/platform/clock';
import { toStoredEvent } from '../../src/platform/event-store/event-rows';
import { type EventRow, entryHash } from '@crcs/tlog';
import { EventStore } from '../../src/platform/event-store/event-store.port';
import { DATABASE, type Database } from '../../src/platform/event-store/sql';
import { roundTender } from '../../src/rules/cash-settlement';
import type { RoundingMode, TenderType } from '../../src/rules/rounding-engine';
import { call, issueKey, onboardMerchant, uniqueId, type Answer } from '../support/auth';
import { FixedClock } from '../support/fixed-clock';
import { ruleAt } from '../support/jurisdiction-rules';
import { DRIVERS } from '../support/test-database';
import { startTestApp, TEST_ADMIN_KEY, type TestApp } from '../support/test-app';

const NOW = '2026-11-21T12:00:00.000Z';
/** Phoenix, AZ: the state rule, swedish rounding, mandatory. */
const PHOENIX = '85004';
/** Birmingham, AL: the state rule, symmetrical rounding, permissive. */
const BIRMINGHAM = '35203';
/** Tucson, AZ: a city rule of its own, recorded by the test. */
const TUCSON = '85701';

/** Seed data has no enacted city rounding rule: this one is recorded the way an administrator would. */
const TUCSON_NOTICE = 'Cash totals are rounded down to the nearest 5 cents.';
const TUCSON_RULE = ruleAt({
  state: 'AZ',
  county: 'Pima',
  city: 'Tucson',
  rounding_mode: 'mandatory_round_down',
  legislation: 'Tucson Ordinance 2026-17 (test)',
  effective_date: '2026-10-01',
  disclosure_required: true,
  disclosure_text: TUCSON_NOTICE,
  source: ['https://tucson.example.test/ordinance-2026-17'],
  notes: 'Recorded by the transactions e2e test.',
  last_verified: '2026-10-01',
  disclosure: { kind: 'receipt', text: TUCSON_NOTICE, itemized: false },
});

/** The fields of the spec's transaction record, each with its type. */
const SPEC_RECORD = {
  id: expect.stringMatching(/^TXN-2026-11-21-[0-9A-Z]{8}$/),
  calculation: expect.objectContaining({
    subtotal_cents: expect.any(Number),
    tax_total_cents: expect.any(Number),
    ledger_total_cents: expect.any(Number),
    cash_total_cents: expect.any(Number),
    rounding_delta_cents: expect.any(Number),
    payment_method: expect.any(String),
    cash_rounding_mode: expect.any(String),
    jurisdiction: expect.stringMatching(/^US(-|$)/),
    rounding_applied: expect.any(Boolean),
  }),
  compliance: expect.objectContaining({ compliance_status: expect.stringMatching(/^(PASS|WARN|FAIL)$/) }),
  fraud_score: expect.any(Number),
  risk_level: expect.stringMatching(/^(NONE|LOW|MEDIUM|HIGH|CRITICAL)$/),
  auditHash: expect.stringMatching(/^[0-9a-f]{64}$/),
};

interface Merchant {
  merchantId: string;
  key: string;
  keyId: string;
}

describe.each(DRIVERS)('transactions over HTTP on %s', (driver) => {
  let app: TestApp;
  let db: Database;
  let shop: Merchant;

  const newMerchant = async (environment: 'sandbox' | 'production' = 'sandbox'): Promise<Merchant> => {
    const { merchant_id: merchantId } = await onboardMerchant(app, { environment });
    const issued = await issueKey(app, { role: 'merchant', merchant_id: merchantId });
    return { merchantId: merchantId, key: issued.key, keyId: issued.api_key.id };
  };
  const sale = (merchant: Merchant, fields: Record<string, unknown> = {}) => ({
    merchant_id: merchant.merchantId,
    subtotal_cents: 1000,
    tax_total_cents: 3,
    payment_method: 'cash',
    ...fields,
  });
  const post = (merchant: Merchant, body: unknown, headers: Record<string, string> = {}) =>
    call(app, 'POST', '/transaction', { key: merchant.key, body, headers });
  const created = async (answer: Promise<Answer>) => {
    const { status, body } = await answer;
    expect({ status, body }).toEqual({ status: 201, body: expect.anything() });
    return body.transaction;
  };
  /** The whole rule a sale's answer points at with `rule.href` (the answer holds its summary only). */
  const fullRule = async (merchant: Merchant, transaction: { rule: { href: string } }) => {
    const response = await fetch(new URL(transaction.rule.href, app.baseUrl), {
      headers: { 'x-api-key': merchant.key },
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { transaction: { rule: Record<string, unknown> } }).transaction.rule;
  };
  const eventsOf = (merchantId: string) =>
    db.query<{ stream_id: string; position: string; hash: string; data: any; metadata: any }>(
      `select stream_id, position, hash, data, metadata from events
       where event_type = 'TransactionRecorded' and metadata->>'merchantId' = $1 order by position`,
      [merchantId],
    );
  const expected = (
    paymentMethod: TenderType,
    mode: RoundingMode,
    tenders?: { type: TenderType; amount_cents: number }[],
  ) =>
    roundTender({
      payment_method: paymentMethod,
      subtotal_cents: 1000,
      tax_total_cents: 3,
      terms: { mode, rounds: 'total', exact_change_exempt: false, small_total: null },
      tenders,
    });

  beforeAll(async () => {
    app = await startTestApp({
      driver,
      override: (builder) => builder.overrideProvider(Clock).useValue(new FixedClock(new Date(NOW))),
    });
    db = app.app.get<Database>(DATABASE);
    shop = await newMerchant();
  });

  afterAll(() => app?.close());

  describe('POST /transaction', () => {
    it('rounds a cash sale in a rounding state and answers exactly the envelope of the spec', async () => {
      const { status, body, headers } = await post(shop, sale(shop, { zip_code: PHOENIX, cashier_id: uniqueId('c') }), {
        'x-request-id': 'pos-cash-1',
      });
      expect(status).toBe(201);
      // The spec's envelope, and the signed promise of the sale's entry (docs/design.md "Tamper evidence").
      expect(Object.keys(body).sort()).toEqual(['promise', 'success', 'transaction']);
      expect(body.success).toBe(true);
      const transaction = body.transaction;
      expect(transaction).toMatchObject(SPEC_RECORD);

      const rounded = expected('cash', 'swedish_rounding');
      expect(rounded).toMatchObject({ cash_total_cents: 1005, rounding_delta_cents: 2 });
      expect(transaction.calculation).toMatchObject({
        subtotal_cents: 1000,
        tax_total_cents: 3,
        ledger_total_cents: 1003,
        cash_total_cents: rounded.cash_total_cents,
        rounding_delta_cents: rounded.rounding_delta_cents,
        payment_method: 'cash',
        cash_rounding_mode: 'swedish_rounding',
        jurisdiction: 'US-AZ',
        rounding_applied: true,
        mode_source: 'rule',
        tenders: [{ type: 'cash', amount_cents: 1003, rounded: true, exemption: null }],
      });
      // The answer carries the rule in summary; the whole record, notes and sources, is one GET away.
      expect(transaction.rule).toEqual({
        lookup_key: 'AZ',
        version: transaction.calculation.rule_version,
        rounding_mode: 'swedish_rounding',
        enforcement: 'mandatory',
        status: 'enacted',
        confidence: 'low',
        href: `/api/v1/transaction/${transaction.id}`,
      });
      // The summary's fields are the whole record's.
      const { version: _version, href: _href, ...summarized } = transaction.rule;
      expect(await fullRule(shop, transaction)).toMatchObject({
        ...summarized,
        jurisdiction_id: 'US-AZ',
        jurisdiction_level: 'state',
        legislation: expect.any(String),
        notes: expect.any(String),
      });
      expect(transaction).toMatchObject({
        type: 'SALE',
        merchant_id: shop.merchantId,
        environment: 'sandbox',
        created_at: NOW,
        // Arizona's enactment rests on a vendor's list (seeds: confidence low): rounded as the rule says, and said so.
        compliance: {
          compliance_status: 'WARN',
          reasons: [{ code: 'RULE_UNCONFIRMED', severity: 'WARN', message: expect.stringContaining('US-AZ') }],
        },
        fraud_score: 0,
        risk_level: 'NONE',
        location: { zip: PHOENIX, state: 'AZ', city: 'Phoenix' },
      });
      expect(headers.get('x-request-id')).toBe('pos-cash-1');

      const [event] = await db.query<EventRow>('select * from events where stream_id = $1', [
        `transaction-${transaction.id}`,
      ]);
      expect(event).toMatchObject({
        event_type: 'TransactionRecorded',
        stream_revision: 1,
        hash: transaction.auditHash,
      });
      expect(Number(event.position)).toBe(transaction.chain_position);
      // The chain's own hash of the stored entry, as the verifier recomputes it.
      expect(entryHash(toStoredEvent(event))).toBe(transaction.auditHash);
      expect(event.metadata).toEqual({
        schemaVersion: 1,
        correlationId: 'pos-cash-1',
        causationId: 'pos-cash-1',
        actor: { keyId: shop.keyId, role: 'merchant' },
        merchantId: shop.merchantId,
      });
      expect(event.data.calculation).toMatchObject({
        subtotal_cents: 1000,
        cash_total_cents: 1005,
        rounding_delta_cents: 2,
      });
    });

    it.each([
      ['card', 'Ala. Act 2026-548 (HB 545); Wash. SHB 2334'],
      ['mobile', 'Ala. Act 2026-548 (HB 545); Wash. SHB 2334'],
      ['ebt', '7 CFR 278.2'],
    ] as const)('never rounds a %s sale in the same place', async (method, citation) => {
      const transaction = await created(post(shop, sale(shop, { zip_code: PHOENIX, payment_method: method })));
      const unrounded = expected(method, 'swedish_rounding');
      expect(transaction.calculation).toMatchObject({
        ledger_total_cents: 1003,
        cash_total_cents: unrounded.cash_total_cents,
        rounding_delta_cents: 0,
        rounding_applied: false,
        payment_method: method,
        jurisdiction: 'US-AZ',
        tenders: [
          { type: method, amount_cents: 1003, rounded: false, exemption: { citation, rule: expect.any(String) } },
        ],
      });
      expect(unrounded.cash_total_cents).toBe(1003);
      expect(transaction.compliance.reasons.map((r: { code: string }) => r.code)).toEqual(['RULE_UNCONFIRMED']);
    });

    it('rounds only the cash portion of a cash + EBT + card split', async () => {
      const tenders = [
        { type: 'cash' as const, amount_cents: 503 },
        { type: 'ebt' as const, amount_cents: 400 },
        { type: 'card' as const, amount_cents: 100 },
      ];
      const transaction = await created(
        post(shop, sale(shop, { zip_code: BIRMINGHAM, is_split_tender: true, tenders })),
      );
      const rounded = expected('cash', 'symmetrical_rounding', tenders);
      expect(transaction.calculation).toMatchObject({
        ledger_total_cents: 1003,
        cash_portion_cents: 503,
        cash_total_cents: rounded.cash_total_cents,
        rounding_delta_cents: rounded.rounding_delta_cents,
        is_split_tender: true,
        jurisdiction: 'US-AL',
        tenders: [
          { type: 'cash', amount_cents: 503, rounded: true, exemption: null },
          {
            type: 'ebt',
            amount_cents: 400,
            rounded: false,
            exemption: expect.objectContaining({ citation: '7 CFR 278.2' }),
          },
          {
            type: 'card',
            amount_cents: 100,
            rounded: false,
            exemption: expect.objectContaining({ citation: expect.any(String) }),
          },
        ],
      });
      expect(rounded).toMatchObject({ cash_total_cents: 505, rounding_delta_cents: 2 });
    });

    it("applies a city rule that differs from its state's", async () => {
      const put = await call(app, 'PUT', `/admin/jurisdictions/${TUCSON_RULE.lookup_key}`, {
        key: TEST_ADMIN_KEY,
        body: TUCSON_RULE,
      });
      expect(put.status).toBe(201);

      const tucson = await created(post(shop, sale(shop, { zip_code: TUCSON })));
      const rounded = expected('cash', 'mandatory_round_down');
      expect(tucson.calculation).toMatchObject({
        jurisdiction: 'US-AZ-Pima-Tucson',
        cash_rounding_mode: 'mandatory_round_down',
        cash_total_cents: rounded.cash_total_cents,
        rounding_delta_cents: rounded.rounding_delta_cents,
      });
      expect(rounded).toMatchObject({ cash_total_cents: 1000, rounding_delta_cents: -3 });
      expect(tucson.rule).toMatchObject({ lookup_key: TUCSON_RULE.lookup_key, rounding_mode: 'mandatory_round_down' });
      expect(await fullRule(shop, tucson)).toMatchObject({
        jurisdiction_level: 'city',
        legislation: TUCSON_RULE.legislation,
      });

      const phoenix = await created(post(shop, sale(shop, { zip_code: PHOENIX })));
      expect(phoenix.calculation).toMatchObject({ jurisdiction: 'US-AZ', cash_total_cents: 1005 });
    });

    it('falls back to the federal default without any location, as a WARN', async () => {
      const transaction = await created(post(shop, sale(shop)));
      expect(transaction.calculation).toMatchObject({
        jurisdiction: 'US',
        cash_rounding_mode: 'symmetrical_rounding',
        cash_total_cents: 1005,
      });
      expect(transaction.rule).toMatchObject({ lookup_key: 'US' });
      expect(await fullRule(shop, transaction)).toMatchObject({ jurisdiction_level: 'federal' });
      expect(transaction.compliance).toEqual({
        compliance_status: 'WARN',
        reasons: [{ code: 'NO_LOCATION_FALLBACK', severity: 'WARN', message: expect.any(String) }],
      });
      expect(transaction.location).toEqual({ zip: null, state: null, county: null, city: null, county_fips: null });
    });

    it("applies the ZIP's rule when the state contradicts it, as a WARN", async () => {
      const transaction = await created(post(shop, sale(shop, { zip_code: PHOENIX, state: 'AL' })));
      expect(transaction.calculation.jurisdiction).toBe('US-AZ');
      expect(transaction.compliance.compliance_status).toBe('WARN');
      expect(transaction.compliance.reasons.map((r: { code: string }) => r.code)).toEqual([
        'STATE_ZIP_MISMATCH',
        'RULE_UNCONFIRMED',
      ]);
      expect(transaction.fraud_signals).toEqual([expect.objectContaining({ code: 'ZIP_STATE_MISMATCH', points: 20 })]);
      expect(transaction).toMatchObject({ fraud_score: 20, risk_level: 'LOW' });
    });

    it('warns CASH_SURCHARGE_BARRED when cash is rounded up where a law bars charging cash payers more (New York City)', async () => {
      const up = await created(post(shop, sale(shop, { zip_code: '10001' })));
      expect(up.calculation).toMatchObject({ jurisdiction: 'US', cash_total_cents: 1005, rounding_delta_cents: 2 });
      expect(up.compliance).toEqual({
        compliance_status: 'WARN',
        reasons: [
          {
            code: 'CASH_SURCHARGE_BARRED',
            severity: 'WARN',
            message: expect.stringContaining(
              'the records of US-NY-New York-New York City, US-NY say cash_surcharge_barred',
            ),
          },
        ],
      });
      const down = await created(post(shop, sale(shop, { zip_code: '10001', tax_total_cents: 1 })));
      expect(down.calculation.rounding_delta_cents).toBe(-1);
      expect(down.compliance).toEqual({ compliance_status: 'PASS', reasons: [] });
      // New Jersey's cash-acceptance statute says nothing of surcharges: its record is silent, and so is the answer.
      const newark = await created(post(shop, sale(shop, { zip_code: '07102' })));
      expect(newark.calculation.rounding_delta_cents).toBe(2);
      expect(newark.compliance).toEqual({ compliance_status: 'PASS', reasons: [] });
    });

    it('resolves state, county and city without a ZIP', async () => {
      const transaction = await created(post(shop, sale(shop, { state: 'az', county: 'Pima', city: 'Tucson' })));
      expect(transaction.calculation.jurisdiction).toBe('US-AZ-Pima-Tucson');
      expect(transaction.compliance.compliance_status).toBe('PASS');
    });

    it('fails an explicit mode that contradicts a mandatory rule under a production key', async () => {
      const production = await newMerchant('production');
      const transaction = await created(
        post(production, sale(production, { zip_code: PHOENIX, cash_rounding_mode: 'none' })),
      );
      expect(transaction.calculation).toMatchObject({
        cash_rounding_mode: 'none',
        mode_source: 'explicit',
        cash_total_cents: 1003,
      });
      expect(transaction.environment).toBe('production');
      expect(transaction.compliance.compliance_status).toBe('FAIL');
      expect(transaction.compliance.reasons[1]).toMatchObject({
        code: 'EXPLICIT_MODE_CONTRADICTS_MANDATORY_RULE',
        severity: 'FAIL',
      });
    });

    it('warns of an explicit mode under a sandbox key', async () => {
      const transaction = await created(post(shop, sale(shop, { zip_code: PHOENIX, cash_rounding_mode: 'none' })));
      expect(transaction.compliance.compliance_status).toBe('WARN');
      expect(transaction.compliance.reasons[1]).toMatchObject({
        code: 'EXPLICIT_MODE_CONTRADICTS_MANDATORY_RULE',
        severity: 'WARN',
      });
    });

    it("scores round-up bias from the merchant's history in the read model, and records the position it reflected", async () => {
      const biased = await newMerchant();
      // Totals ending in 3 always round up under symmetrical rounding.
      let nineteenth = { chain_position: 0 };
      for (let i = 0; i < 19; i++) nineteenth = await created(post(biased, sale(biased, { zip_code: BIRMINGHAM })));
      // The history is the read model's, which follows the log: once it holds the 19 sales, the 20th is scored on them.
      const listed = await call(app, 'GET', `/transactions?min_position=${nineteenth.chain_position}`, {
        key: biased.key,
      });
      expect(listed.body.total).toBe(19);
      const twentieth = await created(post(biased, sale(biased, { zip_code: BIRMINGHAM })));
      const [entry] = await app.app.get(EventStore).readStream(`transaction-${twentieth.id}`);
      expect(entry.data.history_position).toBeGreaterThanOrEqual(nineteenth.chain_position);
      expect(entry.data.history_position).toBeLessThan(twentieth.chain_position);
      expect(twentieth.fraud_signals).toEqual([expect.objectContaining({ code: 'ROUND_UP_BIAS', points: 40 })]);
      expect(twentieth).toMatchObject({ fraud_score: 40, risk_level: 'MEDIUM' });
      expect(twentieth.compliance.reasons).toEqual([
        expect.objectContaining({ code: 'FRAUD_RISK_MEDIUM', severity: 'WARN' }),
      ]);
      // Another merchant's history is its own.
      expect((await created(post(shop, sale(shop, { zip_code: BIRMINGHAM })))).fraud_score).toBe(0);
    });

    describe('validation', () => {
      const rejected = async (body: unknown) => {
        const before = (await app.app.get(EventStore).head()).position;
        const answer = await post(shop, body);
        expect(answer.status).toBe(400);
        expect(answer.body).toMatchObject({ error: 'VALIDATION_ERROR', message: expect.any(String) });
        expect((await app.app.get(EventStore).head()).position).toBe(before);
        return (answer.body.details as { field: string; messages: string[] }[]).map((detail) => detail.field);
      };

      it('names every bad field once', async () => {
        const fields = await rejected({
          merchant_id: shop.merchantId,
          subtotal_cents: -1,
          tax_total_cents: 2.5,
          payment_method: 'cheque',
          zip_code: '85004-1234',
          cash_rounding_mode: 'nearest_dime',
          tenders: [{ type: 'gold', amount_cents: -5 }],
          colour: 'red',
        });
        expect(fields.sort()).toEqual(
          [
            'cash_rounding_mode',
            'colour',
            'payment_method',
            'subtotal_cents',
            'tax_total_cents',
            'tenders.0.amount_cents',
            'tenders.0.type',
            'zip_code',
          ].sort(),
        );
      });

      it.each([
        ['a missing body', undefined, ['merchant_id', 'payment_method', 'subtotal_cents', 'tax_total_cents']],
        ['cents as a string', { subtotal_cents: '1000' }, ['subtotal_cents']],
        ['a ZIP as a number', { zip_code: 85004 }, ['zip_code']],
        ['a four-digit ZIP', { zip_code: '8500' }, ['zip_code']],
        ['a three-letter state', { state: 'ARZ' }, ['state']],
        ['an unknown state', { state: 'ZZ' }, ['state']],
        ['tenders that are not a list', { tenders: 'cash' }, ['tenders']],
        [
          'tenders that do not add up',
          {
            tenders: [
              { type: 'cash', amount_cents: 500 },
              { type: 'card', amount_cents: 500 },
            ],
          },
          ['tenders'],
        ],
        [
          'a split tender with one tender',
          { is_split_tender: true, tenders: [{ type: 'cash', amount_cents: 1003 }] },
          ['tenders'],
        ],
        [
          'a payment_method outside the tenders',
          {
            payment_method: 'mobile',
            tenders: [
              { type: 'cash', amount_cents: 3 },
              { type: 'card', amount_cents: 1000 },
            ],
          },
          ['payment_method'],
        ],
        ['a merchant_id with a space', { merchant_id: 'shop 1' }, ['merchant_id']],
      ])('rejects %s', async (_case, fields, expectedFields) => {
        const body = fields === undefined ? {} : sale(shop, fields);
        expect((await rejected(body)).sort()).toEqual(expectedFields);
      });
    });

    describe('who may record', () => {
      it('refuses a merchant key a sale for another merchant (403), and records nothing', async () => {
        const other = await newMerchant();
        const answer = await post(shop, sale(other, { zip_code: PHOENIX }));
        expect(answer.status).toBe(403);
        expect(answer.body.error).toBe('FORBIDDEN');
        expect(await eventsOf(other.merchantId)).toEqual([]);
      });

      it('lets a partner record for its own merchant', async () => {
        const partner = await issueKey(app, { role: 'partner', environment: 'sandbox' });
        const { merchant_id: merchantId } = await onboardMerchant(app, { environment: 'sandbox' }, partner.key);
        const answer = await call(app, 'POST', '/transaction', {
          key: partner.key,
          body: { ...sale(shop), merchant_id: merchantId },
        });
        expect(answer.status).toBe(201);
        expect(answer.body.transaction.merchant_id).toBe(merchantId);
      });

      it.each([['admin'], ['auditor']])('refuses an %s key (403)', async (role) => {
        const key = role === 'admin' ? TEST_ADMIN_KEY : (await issueKey(app, { role: 'auditor' })).key;
        const answer = await call(app, 'POST', '/transaction', { key, body: sale(shop) });
        expect(answer.status).toBe(403);
      });

      it('refuses a request without a key (401)', async () => {
        expect((await call(app, 'POST', '/transaction', { body: sale(shop) })).status).toBe(401);
      });
    });
  });

  describe('Idempotency-Key', () => {
    it('answers a retry with the first response, without a second event', async () => {
      const merchant = await newMerchant();
      const body = sale(merchant, { zip_code: PHOENIX });
      const first = await post(merchant, body, { 'idempotency-key': 'retry-1' });
      const again = await post(merchant, body, { 'idempotency-key': 'retry-1' });
      expect(first.status).toBe(201);
      expect(again.status).toBe(201);
      // Key order too: the replay is the first answer's very text.
      expect(JSON.stringify(again.body)).toBe(JSON.stringify(first.body));
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      // The retry can read its write where the first answer could: the position is the sale's entry.
      expect(first.headers.get('x-log-position')).toBe(String(first.body.transaction.chain_position));
      expect(again.headers.get('x-log-position')).toBe(first.headers.get('x-log-position'));
      expect(await eventsOf(merchant.merchantId)).toHaveLength(1);
    });

    it('refuses the same key with another body (409), and records nothing', async () => {
      const merchant = await newMerchant();
      await created(post(merchant, sale(merchant), { 'idempotency-key': 'reused-1' }));
      const answer = await post(merchant, sale(merchant, { subtotal_cents: 2000 }), { 'idempotency-key': 'reused-1' });
      expect(answer.status).toBe(409);
      expect(answer.body).toEqual({ error: 'IDEMPOTENCY_KEY_REUSED', message: expect.stringContaining('reused-1') });
      expect(await eventsOf(merchant.merchantId)).toHaveLength(1);
    });

    it('appends once for concurrent twins, and each gets the same answer', async () => {
      const merchant = await newMerchant();
      const body = sale(merchant, { zip_code: BIRMINGHAM });
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => post(merchant, body, { 'idempotency-key': 'twins-1' })),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(6).fill(201));
      for (const answer of answers) expect(answer.body).toEqual(answers[0].body);
      const events = await eventsOf(merchant.merchantId);
      expect(events).toHaveLength(1);
      expect(events[0].hash).toBe(answers[0].body.transaction.auditHash);
    });

    it('answers concurrent retries of different keys each with its own first answer, beside new keys', async () => {
      const merchant = await newMerchant();
      const bodies = Array.from({ length: 12 }, (_, i) => sale(merchant, { subtotal_cents: 1001 + i }));
      const firsts: Awaited<ReturnType<typeof post>>[] = [];
      for (const [i, body] of bodies.entries())
        firsts.push(await post(merchant, body, { 'idempotency-key': `many-${i}` }));
      // Looked up together (one statement serves the look-ups that wait for it), answered apart.
      const [retries, fresh] = await Promise.all([
        Promise.all(bodies.map((body, i) => post(merchant, body, { 'idempotency-key': `many-${i}` }))),
        Promise.all(bodies.map((body, i) => post(merchant, body, { 'idempotency-key': `new-${i}` }))),
      ]);
      retries.forEach((retry, i) => {
        expect([retry.status, retry.headers.get('idempotent-replayed')]).toEqual([201, 'true']);
        expect(JSON.stringify(retry.body)).toBe(JSON.stringify(firsts[i].body));
      });
      for (const answer of fresh)
        expect([answer.status, answer.headers.get('idempotent-replayed')]).toEqual([201, null]);
      expect(await eventsOf(merchant.merchantId)).toHaveLength(24);
    });

    it("shares the keys of one merchant's API keys: a second till's retry records nothing twice, another body is a 409", async () => {
      const merchant = await newMerchant();
      const second = {
        ...merchant,
        key: (await issueKey(app, { role: 'merchant', merchant_id: merchant.merchantId })).key,
      };
      const one = await post(merchant, sale(merchant), { 'idempotency-key': 'shared-1' });
      const two = await post(second, sale(merchant), { 'idempotency-key': 'shared-1' });
      expect([one.status, two.status]).toEqual([201, 201]);
      expect(JSON.stringify(two.body)).toBe(JSON.stringify(one.body));
      expect(two.headers.get('idempotent-replayed')).toBe('true');
      expect(await eventsOf(merchant.merchantId)).toHaveLength(1);
      const other = await post(second, sale(merchant, { subtotal_cents: 2000 }), { 'idempotency-key': 'shared-1' });
      expect([other.status, other.body.error]).toEqual([409, 'IDEMPOTENCY_KEY_REUSED']);
      expect(await eventsOf(merchant.merchantId)).toHaveLength(1);
    });

    it('keeps the keys of different merchants apart', async () => {
      const [first, second] = [await newMerchant(), await newMerchant()];
      await created(post(first, sale(first), { 'idempotency-key': 'shared-2' }));
      await created(post(second, sale(second), { 'idempotency-key': 'shared-2' }));
      expect(await eventsOf(first.merchantId)).toHaveLength(1);
      expect(await eventsOf(second.merchantId)).toHaveLength(1);
    });

    it('runs again after 24 hours', async () => {
      const merchant = await newMerchant();
      const clock = app.app.get<Clock, FixedClock>(Clock);
      const first = await created(post(merchant, sale(merchant), { 'idempotency-key': 'day-1' }));
      clock.advance(24 * 60 * 60 * 1000);
      try {
        const later = await created(post(merchant, sale(merchant), { 'idempotency-key': 'day-1' }));
        expect(later.id).not.toBe(first.id);
      } finally {
        clock.advance(-24 * 60 * 60 * 1000);
      }
    });

    it('is not recorded for a request that failed', async () => {
      const merchant = await newMerchant();
      const bad = await post(merchant, sale(merchant, { tenders: [{ type: 'cash', amount_cents: 1 }] }), {
        'idempotency-key': 'bad-1',
      });
      expect(bad.status).toBe(400);
      expect((await post(merchant, sale(merchant), { 'idempotency-key': 'bad-1' })).status).toBe(201);
    });

    it('refuses a malformed key (400)', async () => {
      const answer = await post(shop, sale(shop), { 'idempotency-key': 'has space' });
      expect(answer.status).toBe(400);
      expect(answer.body.details).toEqual([{ field: 'Idempotency-Key', messages: [expect.any(String)] }]);
    });
  });

  describe('GET /transaction/{id}', () => {
    it('reads the sale right after it was recorded', async () => {
      const transaction = await created(post(shop, sale(shop, { zip_code: PHOENIX })));
      const { status, body } = await call(app, 'GET', `/transaction/${transaction.id}`, { key: shop.key });
      expect(status).toBe(200);
      expect(body).toEqual({
        success: true,
        transaction: {
          ...transaction,
          // The whole rule, which the POST answered in summary.
          rule: expect.objectContaining({
            lookup_key: transaction.rule.lookup_key,
            rounding_mode: transaction.rule.rounding_mode,
            enforcement: transaction.rule.enforcement,
            status: transaction.rule.status,
            confidence: transaction.rule.confidence,
            source: expect.any(Array),
          }),
          history: [
            {
              event: 'TransactionRecorded',
              chain_position: transaction.chain_position,
              audit_hash: transaction.auditHash,
              recorded_at: NOW,
            },
          ],
        },
      });
    });

    it("answers another merchant's transaction exactly like an unknown one", async () => {
      const transaction = await created(post(shop, sale(shop)));
      const other = await newMerchant();
      const theirs = await call(app, 'GET', `/transaction/${transaction.id}`, { key: other.key });
      const unknown = await call(app, 'GET', '/transaction/TXN-2026-11-21-00000000', { key: other.key });
      expect(theirs.status).toBe(404);
      expect(theirs.body).toEqual({ error: 'NOT_FOUND', message: `Transaction ${transaction.id} not found` });
      expect(unknown.body).toEqual({ error: 'NOT_FOUND', message: 'Transaction TXN-2026-11-21-00000000 not found' });
    });

    it('lets an auditor read any transaction', async () => {
      const transaction = await created(post(shop, sale(shop)));
      const auditor = await issueKey(app, { role: 'auditor' });
      const { status, body } = await call(app, 'GET', `/transaction/${transaction.id}`, { key: auditor.key });
      expect(status).toBe(200);
      expect(body.transaction.id).toBe(transaction.id);
    });

    it('refuses a malformed id (400)', async () => {
      const { status, body } = await call(app, 'GET', '/transaction/12345', { key: shop.key });
      expect(status).toBe(400);
      expect(body.details).toEqual([{ field: 'id', messages: [expect.any(String)] }]);
    });
  });

  describe('GET /transactions', () => {
    let lister: Merchant;
    let recorded: { id: string; state: string }[];
    let lastPosition = 0;

    beforeAll(async () => {
      lister = await newMerchant();
      recorded = [];
      for (const [zip, state] of [
        [PHOENIX, 'AZ'],
        [BIRMINGHAM, 'AL'],
        [PHOENIX, 'AZ'],
        [BIRMINGHAM, 'AL'],
        [PHOENIX, 'AZ'],
      ]) {
        const transaction = await created(post(lister, sale(lister, { zip_code: zip })));
        recorded.push({ id: transaction.id, state });
        lastPosition = transaction.chain_position;
      }
      // The list follows the log: this read waits until it holds the five sales, and every read after sees them.
      const { status, headers } = await list(`?min_position=${lastPosition}`);
      expect(status).toBe(200);
      expect(Number(headers.get('x-log-position'))).toBeGreaterThanOrEqual(lastPosition);
    });

    const list = (query: string, key = lister.key) => call(app, 'GET', `/transactions${query}`, { key });
    const newestFirst = () => [...recorded].reverse().map((t) => t.id);

    it("lists the merchant's own transactions, newest first, with the total", async () => {
      const { status, body } = await list('');
      expect(status).toBe(200);
      expect(body).toEqual({ transactions: expect.any(Array), total: 5, limit: 50, offset: 0 });
      expect(body.transactions.map((t: { id: string }) => t.id)).toEqual(newestFirst());
      expect(body.transactions[0]).toMatchObject(SPEC_RECORD);
    });

    it('filters by state and type, and pages', async () => {
      const arizona = await list('?state=AZ&type=SALE');
      expect(arizona.body.total).toBe(3);
      expect(arizona.body.transactions.map((t: { id: string }) => t.id)).toEqual(
        newestFirst().filter((id) => recorded.find((t) => t.id === id)!.state === 'AZ'),
      );
      const page = await list('?limit=2&offset=1');
      expect(page.body).toMatchObject({ total: 5, limit: 2, offset: 1 });
      expect(page.body.transactions.map((t: { id: string }) => t.id)).toEqual(newestFirst().slice(1, 3));
      expect((await list('?type=VOID')).body).toEqual({ transactions: [], total: 0, limit: 50, offset: 0 });
      expect((await list('?offset=10')).body).toMatchObject({ transactions: [], total: 5 });
    });

    it.each([
      ['limit=1001'],
      ['limit=0'],
      ['limit=abc'],
      ['offset=-1'],
      ['type=SALES'],
      ['state=Arizona'],
      ['colour=red'],
      ['min_position=-1'],
      ['min_position=1.5'],
      ['min_position=1e3'],
      ['min_position=abc'],
    ])('refuses %s (400)', async (query) => {
      const { status, body } = await list(`?${query}`);
      expect(status).toBe(400);
      expect(body.error).toBe('VALIDATION_ERROR');
    });

    it('takes the largest limit', async () => {
      expect((await list('?limit=1000')).body).toMatchObject({ total: 5, limit: 1000 });
    });

    it("refuses a merchant key another merchant's list (403)", async () => {
      expect((await list(`?merchant_id=${shop.merchantId}`)).status).toBe(403);
      expect((await list(`?merchant_id=${lister.merchantId}`)).body.total).toBe(5);
    });

    it('asks a key with access to several merchants to name one', async () => {
      const auditor = await issueKey(app, { role: 'auditor' });
      const unnamed = await list('', auditor.key);
      expect(unnamed.status).toBe(400);
      expect(unnamed.body.details).toEqual([{ field: 'merchant_id', messages: [expect.any(String)] }]);
      const named = await list(`?merchant_id=${lister.merchantId}`, auditor.key);
      expect(named.body.transactions.map((t: { id: string }) => t.id)).toEqual(newestFirst());
    });
  });
});
