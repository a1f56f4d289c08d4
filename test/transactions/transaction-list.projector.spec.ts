import { rebuildProjections } from '../../projections/runner';
import { transactionListProjector } from '../../projections/transaction-list/transaction-list.projector';
import { EventStore } from '../../src/event-store/event-store.port';
import { DATABASE, type Database } from '../../src/event-store/sql';
import { call, issueKey, onboardMerchant } from '../support/auth';
import { dumpReadModels } from '../support/read-models';
import { DRIVERS } from '../support/test-database';
import { startTestApp, type TestApp } from '../support/test-app';

describe.each(DRIVERS)('transaction-list read model on %s', (driver) => {
  let app: TestApp;
  let db: Database;
  let merchantId: string;
  const ids: string[] = [];

  beforeAll(async () => {
    app = await startTestApp({ driver });
    db = app.app.get<Database>(DATABASE);
    ({ merchant_id: merchantId } = await onboardMerchant(app));
    const { key } = await issueKey(app, { role: 'merchant', merchant_id: merchantId });
    const sales = [
      { zip_code: '85004', payment_method: 'cash' },
      { zip_code: '85004', payment_method: 'card' },
      { zip_code: '35203', payment_method: 'cash', is_split_tender: true, tenders: [{ type: 'cash', amount_cents: 603 }, { type: 'ebt', amount_cents: 400 }] },
      { payment_method: 'cash', cashier_id: 'c-1' },
      { zip_code: '85004', state: 'AL', payment_method: 'mobile', store_id: 's-1', terminal_id: 't-1' },
    ];
    for (const fields of sales) {
      const { status, body } = await call(app, 'POST', '/transaction', {
        key,
        body: { merchant_id: merchantId, subtotal_cents: 1000, tax_total_cents: 3, ...fields },
      });
      expect(status).toBe(201);
      ids.push(body.transaction.id);
    }
  });

  afterAll(() => app?.close());

  it('writes one row per sale, with the columns lists filter on and the view the API answers', async () => {
    const [event] = await app.app.get(EventStore).readStream(`transaction-${ids[2]}`);
    const [row] = await db.query<any>('select * from rm_transactions where id = $1', [ids[2]]);
    expect(row).toMatchObject({
      merchant_id: merchantId,
      type: 'SALE',
      state: 'AL',
      jurisdiction_id: 'US-AL',
      payment_method: 'cash',
      cashier_id: null,
      subtotal_cents: '1000',
      ledger_total_cents: '1003',
      cash_total_cents: '605',
      rounding_delta_cents: '2',
      cash_rounding_mode: 'symmetrical_rounding',
      compliance_status: 'PASS',
      fraud_score: 0,
      risk_level: 'NONE',
      audit_hash: event.hash,
      position: String(event.position),
      history: [{ event: 'TransactionRecorded', chain_position: event.position, audit_hash: event.hash, recorded_at: event.recordedAt }],
    });
    expect(row.detail).toMatchObject({ id: ids[2], auditHash: event.hash, chain_position: event.position });
    expect(new Date(row.created_at).toISOString()).toBe(row.detail.created_at);
  });

  it('changes nothing when an event is applied twice', async () => {
    const live = await dumpReadModels(db);
    expect(live.rm_transactions).toHaveLength(ids.length);
    const store = app.app.get(EventStore);
    const events = (await Promise.all(ids.map((id) => store.readStream(`transaction-${id}`)))).flat();
    await db.transaction(async (tx) => {
      for (const event of events) await transactionListProjector.apply(event, tx);
    });
    expect(await dumpReadModels(db)).toEqual(live);
  });

  it('rebuilds from the log to the same rows as the live build', async () => {
    const live = await dumpReadModels(db);
    await rebuildProjections(db, [transactionListProjector]);
    expect(await dumpReadModels(db)).toEqual(live);
  });
});
