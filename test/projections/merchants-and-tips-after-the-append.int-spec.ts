import { DATABASE, type Database } from '../../src/platform/event-store/sql';
import { call, issueKey, onboardMerchant, uniqueId } from '../support/auth';
import { recordSale, saleBody } from '../support/sales';
import { startTestApp, TEST_ADMIN_KEY, type TestApp } from '../support/test-app';
import { recordTip } from '../support/tips';
import { checkpointOf, holdProjectors } from '../support/read-models';
import { waitFor } from '../support/wait';

/**
 * The merchants and tips read models follow the log after the append. What decides whether a
 * merchant exists reads the onboardings after the read model's checkpoint; a tip pool waits for the
 * tips read model to reach the log's head; the webhook fan-out never runs ahead of the read models
 * it reads. Projectors are held back as another process's runner holds them: a transaction of the
 * test holds their checkpoint rows, which a runner locks before it applies a batch.
 */
describe('merchants and tips built after the append', () => {
  let app: TestApp;
  let db: Database;

  beforeAll(async () => {
    app = await startTestApp({ env: { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_MS: '50' } });
    db = app.app.get(DATABASE);
  });

  afterAll(() => app?.close());

  const checkpoint = (name: string) => checkpointOf(db, name);
  const admin = (method: string, path: string, body?: unknown) =>
    call(app, method, path, { key: TEST_ADMIN_KEY, body });
  const position = (answer: { headers: Headers }) => Number(answer.headers.get('x-log-position'));

  it('knows a merchant the moment it is onboarded: its key, its sales, its list, a duplicate refused', async () => {
    const merchantId = uniqueId('m-async');
    const release = await holdProjectors(db, 'merchants');
    let key = '';
    let sale: { status: number; headers: Headers; body: { transaction: { id: string; chain_position: number } } };
    try {
      const onboarded = await admin('POST', '/admin/merchants', {
        merchant_id: merchantId,
        name: 'Held Deli',
        environment: 'sandbox',
      });
      expect(onboarded.status).toBe(201);
      expect(onboarded.body.merchant).toMatchObject({ merchant_id: merchantId, name: 'Held Deli', partner_id: null });
      expect(position(onboarded)).toBeGreaterThan(await checkpoint('merchants'));

      key = (await issueKey(app, { role: 'merchant', merchant_id: merchantId })).key;
      sale = await call(app, 'POST', '/transaction', { key, body: saleBody(merchantId) });
      expect(sale.status).toBe(201);
      // A write says where its last entry is: the sale's own.
      expect(position(sale)).toBe(sale.body.transaction.chain_position);
      expect(
        (await admin('PUT', `/merchant/${merchantId}/rounding-policy`, { rounding_policy: 'favor_customer' })).status,
      ).toBe(200);

      for (const id of [merchantId, merchantId.toUpperCase()]) {
        const again = await admin('POST', '/admin/merchants', {
          merchant_id: id,
          name: 'Twin',
          environment: 'sandbox',
        });
        expect(again.status).toBe(409);
        expect(again.body.error).toBe('MERCHANT_ALREADY_EXISTS');
      }
      const listed = await admin('GET', '/admin/merchants?limit=1000');
      expect(listed.body.merchants.map((m: { merchant_id: string }) => m.merchant_id)).toContain(merchantId);
      expect(await checkpoint('merchants')).toBeLessThan(position(onboarded));
    } finally {
      await release();
    }
    // The write's X-Log-Position, sent as min_position, shows the write in the list.
    const list = await call(app, 'GET', `/transactions?min_position=${position(sale)}`, { key });
    expect(list.status).toBe(200);
    expect(position(list)).toBeGreaterThanOrEqual(position(sale));
    expect(list.body.transactions.map((t: { id: string }) => t.id)).toContain(sale.body.transaction.id);
  });

  it('pools tips once the tips read model holds every entry before the pool, or answers 503 after 2 s', async () => {
    const { merchant_id: merchantId } = await onboardMerchant(app);
    const { key } = await issueKey(app, { role: 'merchant', merchant_id: merchantId });
    const sale = await recordSale(app, key, merchantId);
    const pool = (tipIds: string[]) =>
      call(app, 'POST', '/tip/pool/create', {
        key,
        body: {
          tip_ids: tipIds,
          pool_name: 'Friday',
          distribution_method: 'equal',
          participants: [
            { employeeId: 'e-1', employeeName: 'Ana' },
            { employeeId: 'e-2', employeeName: 'Ben' },
          ],
        },
      });

    let release = await holdProjectors(db, 'tips');
    const tips: { id: string; chain_position: number }[] = [];
    try {
      // Recorded, and answered from the log, while the read model is held.
      for (const amount of [4, 6]) tips.push(await recordTip(app, key, sale.id, { tip_amount: amount }));
      expect(tips[1]).toMatchObject({ amount_cents: 600, pool_id: null, history: [{ event: 'TipRecorded' }] });
      expect(await checkpoint('tips')).toBeLessThan(tips[0].chain_position);

      const started = Date.now();
      const refused = await pool([tips[0].id]);
      expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(refused.body.error).toBe('LOG_POSITION_NOT_REACHED');
      expect(refused.headers.get('x-log-position')).toBeNull();

      // Asked while the read model is behind, decided once it has caught up, over every tip.
      const waiting = pool(tips.map((tip) => tip.id));
      // A whole round trip on another connection: the waiting request has reached the service by then.
      expect((await admin('GET', '/health')).status).toBe(200);
      await release();
      const pooled = await waiting;
      expect({ status: pooled.status, error: pooled.body.error }).toEqual({ status: 201, error: undefined });
      expect(pooled.body.pool).toMatchObject({ total_cents: 1000, tip_ids: tips.map((tip) => tip.id) });
      expect(position(pooled)).toBe(pooled.body.pool.chain_position);
    } finally {
      await release();
    }

    // Two pools of one tip at once: the chain-head lock orders them, and the second sees the first's entry.
    const third = await recordTip(app, key, sale.id, { tip_amount: 2 });
    release = await holdProjectors(db, 'tips');
    let answers: { status: number; body: { error?: string } }[];
    try {
      const racing = [pool([third.id]), pool([third.id])];
      expect((await admin('GET', '/health')).status).toBe(200);
      await release();
      answers = await Promise.all(racing);
    } finally {
      await release();
    }
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
    expect(answers.find((answer) => answer.status === 409)!.body.error).toBe('TIP_ALREADY_POOLED');
    const adjusted = await call(app, 'POST', '/tip/adjust', {
      key,
      body: { tip_id: third.id, new_amount: 1, reason: 'typo' },
    });
    expect(adjusted.status).toBe(409);
    expect(adjusted.body.error).toBe('TIP_POOLED');

    const analytics = await admin(
      'GET',
      `/analytics/tips?merchant_id=${merchantId}&min_position=${third.chain_position}`,
    );
    expect(analytics.status).toBe(200);
    expect(position(analytics)).toBeGreaterThanOrEqual(third.chain_position);
  });

  it('fans out no event before the merchants read model has applied its merchant', async () => {
    // The merchants projector fails on every batch while the trigger is there: the runner then runs each projector alone.
    await db.query(`create function refuse_merchants() returns trigger language plpgsql as $$
      begin raise exception 'merchants projector down'; end $$`);
    await db.query(
      'create trigger refuse_merchants before insert on rm_merchants for each row execute function refuse_merchants()',
    );
    let endpointId: string;
    let voided: { chain_position: number };
    try {
      const { merchant_id: merchantId } = await onboardMerchant(app);
      const { key } = await issueKey(app, { role: 'merchant', merchant_id: merchantId });
      const endpoint = await call(app, 'POST', '/webhooks/endpoints', {
        key,
        body: { url: 'http://127.0.0.1:9/hook', event_types: ['transaction.voided'] },
      });
      expect(endpoint.status).toBe(201);
      endpointId = endpoint.body.id;
      const sale = await recordSale(app, key, merchantId);
      const voiding = await call(app, 'POST', '/transaction/void', {
        key,
        body: { original_transaction_id: sale.id, void_reason: 'pricing_error', voided_by: 'manager-1' },
      });
      expect(voiding.status).toBe(201);
      voided = { chain_position: position(voiding) };
      // The other read models move on alone; the fan-out stops where the merchants read model is.
      await waitFor(
        'the transaction list to pass the void',
        async () => (await checkpoint('transaction-list')) >= voided.chain_position,
      );
      expect(await checkpoint('webhook-fan-out')).toBeLessThanOrEqual(await checkpoint('merchants'));
      expect(await checkpoint('merchants')).toBeLessThan(voided.chain_position);
    } finally {
      await db.query('drop trigger refuse_merchants on rm_merchants');
      await db.query('drop function refuse_merchants');
    }
    await waitFor('the void fanned out to the merchant endpoint', async () => {
      const [row] = await db.query<{ n: number }>(
        `select count(*)::int as n from webhook_deliveries where endpoint_id = $1 and event_type = 'transaction.voided'`,
        [endpointId],
      );
      return row.n === 1;
    });
    await admin('DELETE', `/webhooks/endpoints/${endpointId}`);
  });
});
