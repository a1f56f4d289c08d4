import { DATABASE, type Database } from '../../src/platform/event-store/sql';
import { AsyncProjectionRunner } from '../../src/platform/projections/runner';
import { SaleInputsReader, type SaleInputs, type SaleInputsQuery } from '../../src/transactions/read-model/sale-inputs';
import { call, issueKey, onboardMerchant } from '../support/auth';
import { DRIVERS } from '../support/test-database';
import { startTestApp, type TestApp } from '../support/test-app';

const BIRMINGHAM = '35203';

describe.each(DRIVERS)("a sale's inputs read together with other sales' on %s", (driver) => {
  let app: TestApp;
  let reader: SaleInputsReader;
  let queries: SaleInputsQuery[];
  /** Each query's answer, read one at a time. */
  const alone: SaleInputs[] = [];

  beforeAll(async () => {
    app = await startTestApp({ driver });
    reader = app.app.get(SaleInputsReader);
    const merchants: string[] = [];
    for (let m = 0; m < 3; m++) {
      const { merchant_id: merchantId } = await onboardMerchant(app);
      const { key } = await issueKey(app, { role: 'merchant', merchant_id: merchantId });
      merchants.push(merchantId);
      // Each merchant its own mix: cashiers, totals that round up or down, and one with a policy of its own.
      for (let i = 0; i < 4 + 3 * m; i++) {
        const sale = {
          merchant_id: merchantId,
          subtotal_cents: 1000 + 7 * i + m,
          tax_total_cents: 0,
          payment_method: 'cash',
          zip_code: BIRMINGHAM,
          cashier_id: `c-${i % (m + 1)}`,
        };
        expect((await call(app, 'POST', '/transaction', { key, body: sale })).status).toBe(201);
      }
      if (m === 1)
        expect(
          (
            await call(app, 'PUT', `/merchant/${merchantId}/rounding-policy`, {
              key,
              body: { rounding_policy: 'favor_customer' },
            })
          ).status,
        ).toBe(200);
    }
    // The history is read from the transaction list, which follows the log after the append.
    await app.app.get(AsyncProjectionRunner).drain();
    const at = new Date();
    queries = [
      ...merchants.flatMap((merchantId) =>
        ['c-0', 'c-1', 'c-2', null].map((cashierId) => ({ merchantId, cashierId, at })),
      ),
      { merchantId: 'no-such-merchant', cashierId: 'c-0', at },
      // An hour on: the velocity window holds none of the sales.
      { merchantId: merchants[2], cashierId: 'c-0', at: new Date(at.getTime() + 3_600_000) },
    ];
    for (const query of queries) alone.push(await reader.read(query));
  });

  afterAll(() => app?.close());

  it('answers each sale as a read of its own would, in fewer statements', async () => {
    const db = app.app.get<Database>(DATABASE);
    expect(alone.some(({ rounding_policy: roundingPolicy }) => roundingPolicy === 'favor_customer')).toBe(true);
    expect(alone.some(({ history }) => history.cashier_sales_in_window! > 1)).toBe(true);
    expect(alone.some(({ history }) => history.recent_symmetric_deltas.length > 4)).toBe(true);
    expect(alone.at(-1)!.history.cashier_sales_in_window).toBe(0);
    // What the history reflected: the log up to its head, once the read model caught up.
    const head = (await db.query<{ position: string }>('select position from event_store_head'))[0].position;
    expect(alone.map((inputs) => inputs.history_position)).toEqual(alone.map(() => Number(head)));

    const sent = jest.spyOn(db, 'query');
    try {
      expect(await Promise.all(queries.map((query) => reader.read(query)))).toEqual(alone);
      // The first read goes at once; every read asked for while it was out goes in the next statement.
      expect(sent).toHaveBeenCalledTimes(2);
    } finally {
      sent.mockRestore();
    }
  });

  it('fails every sale of a statement that fails, and reads the next ones again', async () => {
    const db = app.app.get<Database>(DATABASE);
    const failing = jest.spyOn(db, 'query').mockRejectedValueOnce(new Error('connection lost'));
    try {
      const reads = queries.slice(0, 3).map((query) => reader.read(query));
      await expect(Promise.all(reads)).rejects.toThrow('connection lost');
      expect((await Promise.allSettled(reads)).map(({ status }) => status)).toEqual([
        'rejected',
        'fulfilled',
        'fulfilled',
      ]);
    } finally {
      failing.mockRestore();
    }
    expect(await reader.read(queries[0])).toEqual(alone[0]);
  });
});
