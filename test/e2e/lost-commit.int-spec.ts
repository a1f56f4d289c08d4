import { setTimeout as sleep } from 'node:timers/promises';
import { DATABASE, type Database } from '../../src/platform/event-store/sql';
import { call, createTwoMerchants, type MerchantFixture } from '../support/auth';
import { saleBody } from '../support/sales';
import { DRIVERS } from '../support/test-database';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * A sale whose database connection is lost while its COMMIT is on the way may or may not be
 * recorded: the answer is 503 OUTCOME_UNKNOWN telling the client to retry with the same
 * Idempotency-Key, and that retry records the sale exactly once. The COMMIT is held open by a
 * deferred trigger that sleeps, and its backend is terminated from another connection meanwhile.
 */
describe.each(DRIVERS)('a commit whose connection is lost, over HTTP on %s', (driver) => {
  let app: TestApp;
  let db: Database;
  let merchant: MerchantFixture;

  beforeAll(async () => {
    app = await startTestApp({ driver });
    db = app.app.get<Database>(DATABASE);
    ({ a: merchant } = await createTwoMerchants(app));
  }, 60_000);

  afterAll(() => app?.close());

  const salesOf = async (merchantId: string) =>
    (
      await db.query<{ n: number }>(
        `select count(*)::int as n from events where event_type = 'TransactionRecorded' and metadata->>'merchantId' = $1`,
        [merchantId],
      )
    )[0].n;

  /** Terminates the first backend found sleeping inside a COMMIT; the trigger sleeps far longer than this looks. */
  async function cutTheCommit(): Promise<void> {
    for (let tries = 0; tries < 400; tries++) {
      const [sleeping] = await db.query<{ pid: number }>(
        `select pid from pg_stat_activity where datname = current_database() and wait_event = 'PgSleep' and query = 'commit'`,
      );
      if (sleeping) {
        await db.query('select pg_terminate_backend($1)', [sleeping.pid]);
        return;
      }
      await sleep(50);
    }
    throw new Error('no COMMIT was seen sleeping');
  }

  it('answers 503 OUTCOME_UNKNOWN, saying to retry with the same Idempotency-Key, and the retry records the sale once', async () => {
    await db.query(
      `create or replace function crcs_test_slow_commit() returns trigger language plpgsql as $$ begin perform pg_sleep(30); return null; end $$`,
    );
    await db.query(
      `create constraint trigger crcs_test_slow_commit after insert on events deferrable initially deferred for each row execute function crcs_test_slow_commit()`,
    );
    const body = saleBody(merchant.merchantId, { cashier_id: 'lost-commit' });
    const headers = { 'idempotency-key': 'lost-commit-1' };
    let answer;
    try {
      [answer] = await Promise.all([
        call(app, 'POST', '/transaction', { key: merchant.key, body, headers }),
        cutTheCommit(),
      ]);
    } finally {
      await db.query('drop trigger crcs_test_slow_commit on events');
      await db.query('drop function crcs_test_slow_commit()');
    }
    expect({ status: answer.status, body: answer.body }).toEqual({
      status: 503,
      body: {
        error: 'OUTCOME_UNKNOWN',
        message:
          'The connection to the database was lost while the request was being committed, so it may have been recorded. ' +
          'Retry it with the same Idempotency-Key: the retry answers what was recorded, or records it once. Without a key, look it up before sending it again',
      },
    });

    const retried = await call(app, 'POST', '/transaction', { key: merchant.key, body, headers });
    const again = await call(app, 'POST', '/transaction', { key: merchant.key, body, headers });
    expect([retried.status, again.status, again.headers.get('idempotent-replayed')]).toEqual([201, 201, 'true']);
    expect(again.body).toEqual(retried.body);
    expect(await salesOf(merchant.merchantId)).toBe(1);
  });
});
