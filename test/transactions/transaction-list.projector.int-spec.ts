import { AsyncProjectionRunner, rebuildProjections } from '../../src/platform/projections/runner';
import { transactionListProjector } from '../../src/transactions/read-model/transaction-list.projector';
import { claimRecordId } from '../../src/transactions/read-model/transaction-reads';
import { EventStore } from '../../src/platform/event-store/event-store.port';
import { DATABASE, type Database } from '../../src/platform/event-store/sql';
import { RecordIdTakenError } from '../../src/platform/ids';
import { call, issueKey, onboardMerchant } from '../support/auth';
import { dumpReadModels } from '../support/read-models';
import { transactionHistory } from '../support/sale-commands';
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
      {
        zip_code: '35203',
        payment_method: 'cash',
        is_split_tender: true,
        tenders: [
          { type: 'cash', amount_cents: 603 },
          { type: 'ebt', amount_cents: 400 },
        ],
      },
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
    // The read model follows the log after the append.
    await app.app.get(AsyncProjectionRunner).drain();
  });

  afterAll(() => app?.close());

  describe('overrides, voids and refunds', () => {
    const history = transactionHistory('m-projected');
    const detailOf = async (id: string) =>
      (await db.query<any>('select detail, history from rm_transactions where id = $1', [id]))[0];

    beforeAll(async () => {
      const store = app.app.get(EventStore);
      for (const { streamId, events } of history) await store.append(streamId, events, { expectedRevision: 0 });
      await app.app.get(AsyncProjectionRunner).drain();
    });

    it("fold into the sale's row: its state, settlement and history", async () => {
      const overridden = await detailOf('TXN-2026-11-21-HIST0002');
      expect(overridden.detail).toMatchObject({
        state: 'overridden',
        calculation: { cash_total_cents: 1000, rounding_delta_cents: -3 },
        original_calculation: { cash_total_cents: 1005, rounding_delta_cents: 2 },
        overrides: [expect.objectContaining({ id: 'OVR-2026-11-21-HIST0002', employee_name: 'Ann' })],
      });
      expect(overridden.history.map((entry: { event: string }) => entry.event)).toEqual([
        'TransactionRecorded',
        'OverrideApplied',
      ]);
      expect((await detailOf('TXN-2026-11-21-HIST0003')).detail).toMatchObject({
        state: 'voided',
        void_transaction_id: 'TXN-2026-11-21-HISTVOID',
        refundable_cents: 0,
      });
      expect((await detailOf('TXN-2026-11-21-HIST0004')).detail).toMatchObject({
        state: 'refunded',
        refund_transaction_ids: ['TXN-2026-11-21-HISTREF1', 'TXN-2026-11-21-HISTREF2'],
        refunded_cents: 1005,
        refundable_cents: 0,
      });
    });

    it('add a row for each VOID and REFUND record, with its own columns', async () => {
      const rows = await db.query<any>(
        `select id, type, cash_total_cents, rounding_delta_cents, history from rm_transactions where merchant_id = 'm-projected' and type <> 'SALE' order by id`,
      );
      expect(
        rows.map(({ id, type, cash_total_cents: cashTotalCents, rounding_delta_cents: roundingDeltaCents }) => [
          id,
          type,
          cashTotalCents,
          roundingDeltaCents,
        ]),
      ).toEqual([
        ['TXN-2026-11-21-HISTREF1', 'REFUND', '-505', '-2'],
        ['TXN-2026-11-21-HISTREF2', 'REFUND', '-500', '0'],
        ['TXN-2026-11-21-HISTVOID', 'VOID', '-1005', '-2'],
      ]);
      expect(rows.map((row) => row.history.map((entry: { event: string }) => entry.event))).toEqual([
        ['RefundIssued'],
        ['RefundIssued'],
        ['TransactionVoided'],
      ]);
    });

    it('refuses, at its append, a second record under an id the log holds, so that it is retried with another', async () => {
      const store = app.app.get(EventStore);
      const [recorded] = await store.readStream(history[0].streamId);
      const head = (await store.head()).position;
      const clash = store.append(
        'transaction-TXN-2026-11-21-CLASH001',
        [{ type: recorded.type, data: recorded.data, metadata: recorded.metadata }],
        {
          expectedRevision: 0,
          inTransaction: (tx, [stored]) => {
            claimRecordId(tx, recorded.data.transaction_id as string, stored.position);
            return Promise.resolve();
          },
        },
      );
      await expect(clash).rejects.toBeInstanceOf(RecordIdTakenError);
      expect((await store.head()).position).toBe(head);
    });
  });

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
      history: [
        {
          event: 'TransactionRecorded',
          chain_position: event.position,
          audit_hash: event.hash,
          recorded_at: event.recordedAt,
        },
      ],
    });
    expect(row.detail).toMatchObject({ id: ids[2], auditHash: event.hash, chain_position: event.position });
    expect(new Date(row.created_at).toISOString()).toBe(row.detail.created_at);
  });

  it('changes nothing when an event is applied twice', async () => {
    // The dumps hold the async read models too: they must have caught up first.
    await app.app.get(AsyncProjectionRunner).drain();
    const live = await dumpReadModels(db);
    // The sales, and the VOID and REFUND records of the history.
    expect(live.rm_transactions).toHaveLength(ids.length + 7);
    const store = app.app.get(EventStore);
    const streams = [
      ...ids.map((id) => `transaction-${id}`),
      ...transactionHistory('m-projected').map((stream) => stream.streamId),
    ];
    const events = (await Promise.all(streams.map((stream) => store.readStream(stream)))).flat();
    // As one replayed batch: the sales and the changes folded into them, in log order.
    await db.transaction((tx) =>
      transactionListProjector.apply(
        events.sort((a, b) => a.position - b.position),
        tx,
      ),
    );
    expect(await dumpReadModels(db)).toEqual(live);
  });

  it('rebuilds from the log to the same rows as the live build', async () => {
    await app.app.get(AsyncProjectionRunner).drain();
    const live = await dumpReadModels(db);
    await rebuildProjections(db, [transactionListProjector]);
    expect(await dumpReadModels(db)).toEqual(live);
  });
});
