import { EventStore } from '../../src/platform/event-store/event-store.port';
import { DATABASE, type Database } from '../../src/platform/event-store/sql';
import { call, issueKey, onboardMerchant } from '../support/auth';
import { recordSale, saleBody } from '../support/sales';
import { startTestApp, TEST_ADMIN_KEY, type TestApp } from '../support/test-app';
import { checkpointOf, holdProjectors } from '../support/read-models';
import { waitFor } from '../support/wait';

/**
 * The transaction list follows the log after the append. What a client is promised (docs/integrators.md,
 * "Reading your own writes"): a read by id sees a write at once, a list, analytics or export says the
 * position it reflects (X-Log-Position) and waits for `min_position`, or answers 503 with Retry-After.
 *
 * The projectors are held back as another service process's runner would hold them: a transaction of
 * the test holds the read model's checkpoint row, which a runner locks before it applies a batch.
 */
describe('reading your own writes while the read models follow the log', () => {
  let app: TestApp;
  let db: Database;
  let shop: { key: string; merchantId: string };

  beforeAll(async () => {
    app = await startTestApp();
    db = app.app.get(DATABASE);
    const { merchant_id: merchantId } = await onboardMerchant(app);
    shop = { key: (await issueKey(app, { role: 'merchant', merchant_id: merchantId })).key, merchantId };
  });

  afterAll(() => app?.close());

  const checkpoint = () => checkpointOf(db, 'transaction-list');
  const get = (path: string) => call(app, 'GET', path, { key: shop.key });
  const post = (path: string, body: unknown) => call(app, 'POST', path, { key: shop.key, body });
  const health = async () => (await call(app, 'GET', '/health')).body;

  it('answers reads by id, voids, overrides and refunds from the log while the read model is held back', async () => {
    const release = await holdProjectors(db, 'transaction-list');
    try {
      const sale = await recordSale(app, shop.key, shop.merchantId, { zip_code: '85004' });
      expect(await checkpoint()).toBeLessThan(sale.chain_position);

      const read = await get(`/transaction/${sale.id}`);
      expect(read.status).toBe(200);
      expect(read.body.transaction).toMatchObject({
        id: sale.id,
        chain_position: sale.chain_position,
        state: 'completed',
      });
      expect((await get(`/transaction/${sale.id}/receipt`)).status).toBe(200);

      // Commands decide from the log: the sale is found, and the void sees the override before it.
      const overridden = await post('/transaction/override', {
        transaction_id: sale.id,
        employee_id: 'e-1',
        employee_name: 'Ann',
        reason: 'customer-request',
        new_cash_total_cents: 1000,
      });
      expect(overridden.status).toBe(201);
      expect(overridden.body.original).toMatchObject({ id: sale.id, state: 'overridden' });
      const refund = await post('/transaction/refund', {
        original_transaction_id: sale.id,
        refund_amount: 500,
        void_reason: 'wrong_item',
        voided_by: 'e-2',
      });
      expect(refund.status).toBe(201);
      expect(refund.body.original).toMatchObject({ state: 'partially_refunded', refunded_cents: 500 });
      const refunded = await get(`/transaction/${refund.body.transaction.id}`);
      expect(refunded.body.transaction).toEqual(refund.body.transaction);
      const shown = (await get(`/transaction/${sale.id}`)).body.transaction;
      expect(shown).toMatchObject({
        state: 'partially_refunded',
        refund_transaction_ids: [refund.body.transaction.id],
      });
      expect(shown.history.map((entry: { event: string }) => entry.event)).toEqual([
        'TransactionRecorded',
        'OverrideApplied',
        'RefundIssued',
      ]);

      // A list answers as of the position its read model reached, and says it.
      const listed = await get('/transactions');
      expect(listed.status).toBe(200);
      expect(listed.body.transactions.map((t: { id: string }) => t.id)).not.toContain(sale.id);
      expect(Number(listed.headers.get('x-log-position'))).toBe(await checkpoint());

      const lag = (await health()).projections.find((p: { name: string }) => p.name === 'transaction-list');
      expect(lag).toMatchObject({ mode: 'async', position: await checkpoint() });
      expect(lag.lag_entries).toBeGreaterThanOrEqual(3);
      expect(lag.lag_ms).toBeGreaterThan(0);
    } finally {
      await release();
    }
  });

  it('waits for min_position, and answers 503 with Retry-After when it is not reached within 2 s', async () => {
    const release = await holdProjectors(db, 'transaction-list');
    let sale: { id: string; chain_position: number } = { id: '', chain_position: 0 };
    try {
      sale = await recordSale(app, shop.key, shop.merchantId);
      const started = Date.now();
      const refused = await get(`/transactions?min_position=${sale.chain_position}`);
      expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(refused.body).toEqual({
        error: 'LOG_POSITION_NOT_REACHED',
        message: expect.stringContaining(`min_position ${sale.chain_position}`),
        log_position: await checkpoint(),
      });
      expect(refused.body.log_position).toBeLessThan(sale.chain_position);
      // The export and the analytics take it the same way.
      const exported = await post(`/export?min_position=${sale.chain_position}`, {});
      expect(exported.status).toBe(503);
      expect(exported.body.error).toBe('LOG_POSITION_NOT_REACHED');

      // Asked while the read model is behind, answered once it has caught up.
      const waiting = get(`/transactions?min_position=${sale.chain_position}`);
      // A whole round trip on another connection: the waiting request has reached the service by then.
      expect((await get('/transactions')).status).toBe(200);
      expect(await checkpoint()).toBeLessThan(sale.chain_position);
      await release();
      const answered = await waiting;
      expect(answered.status).toBe(200);
      expect(Number(answered.headers.get('x-log-position'))).toBeGreaterThanOrEqual(sale.chain_position);
      expect(answered.body.transactions.map((t: { id: string }) => t.id)).toContain(sale.id);
    } finally {
      await release();
    }
    const exported = await post(`/export?min_position=${sale.chain_position}`, {});
    expect(exported.status).toBe(200);
    expect(Number(exported.headers.get('x-log-position'))).toBeGreaterThanOrEqual(sale.chain_position);
    expect(exported.body).toContain(sale.id);
    const analytics = await call(app, 'GET', `/analytics/voids?min_position=${sale.chain_position}`, {
      key: TEST_ADMIN_KEY,
    });
    expect(analytics.status).toBe(200);
    expect(Number(analytics.headers.get('x-log-position'))).toBe(analytics.body.as_of_position);
    // Met at once: an old position.
    expect((await get('/transactions?min_position=0')).status).toBe(200);
  });

  it('answers every read by id right after its write under concurrent load', async () => {
    const reads = await Promise.all(
      Array.from({ length: 24 }, async (_, i) => {
        const written = await post('/transaction', saleBody(shop.merchantId, { subtotal_cents: 1000 + i }));
        const read = await get(`/transaction/${written.body.transaction.id}`);
        return { written: written.body.transaction, status: read.status, read: read.body.transaction };
      }),
    );
    for (const { written, status, read } of reads) {
      expect(status).toBe(200);
      expect(read).toMatchObject({
        id: written.id,
        chain_position: written.chain_position,
        auditHash: written.auditHash,
      });
    }
  });

  it('catches up after its projector failed, with no row lost or doubled', async () => {
    // The projector fails on every batch while the trigger is there, as a bug or a full disk would make it.
    await db.query(`create function refuse_rows() returns trigger language plpgsql as $$
      begin raise exception 'projector down'; end $$`);
    await db.query(
      'create trigger refuse_rows before insert on rm_transactions for each row execute function refuse_rows()',
    );
    const sales: { id: string; chain_position: number }[] = [];
    try {
      for (let i = 0; i < 5; i++)
        sales.push(await recordSale(app, shop.key, shop.merchantId, { subtotal_cents: 2000 + i }));
      for (const sale of sales) expect((await get(`/transaction/${sale.id}`)).status).toBe(200);
      const last = sales[sales.length - 1].chain_position;
      expect(await checkpoint()).toBeLessThan(sales[0].chain_position);
      expect((await get(`/transactions?min_position=${last}`)).status).toBe(503);
    } finally {
      await db.query('drop trigger refuse_rows on rm_transactions');
      await db.query('drop function refuse_rows');
    }
    const last = sales[sales.length - 1].chain_position;
    await waitFor('the projector to catch up', async () => (await checkpoint()) >= last);
    const rows = await db.query<{ id: string; n: number }>(
      'select id, count(*)::int as n from rm_transactions where id = any($1) group by id',
      [sales.map((sale) => sale.id)],
    );
    expect(rows.map((row) => row.n)).toEqual(sales.map(() => 1));
    const lag = (await health()).projections.find((p: { name: string }) => p.name === 'transaction-list');
    expect(lag.position).toBeGreaterThanOrEqual(last);
    const check = await call(app, 'GET', '/admin/verify-transactions', { key: TEST_ADMIN_KEY });
    expect(check.body).toMatchObject({ difference_count: 0 });
    // The log holds each sale once too.
    const store = app.app.get(EventStore);
    for (const sale of sales) expect(await store.readStream(`transaction-${sale.id}`)).toHaveLength(1);
  });
});
