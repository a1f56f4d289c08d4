import { ChainAlarms } from '../../src/audit/chain-alarms';
import { ChainCheckpointer } from '../../src/audit/chain-checkpointer';
import type { StoredEvent } from '../../src/platform/event-store/event-store.port';
import { migrate } from '../../src/platform/event-store/migrations';
import { SqlEventStore } from '../../src/platform/event-store/sql-event-store';
import { DATABASE, type Database } from '../../src/platform/event-store/sql';
import { call, issueKey, onboardMerchant } from '../support/auth';
import { newSigningKey } from '../../packages/tlog/test/chain';
import { FixedClock } from '../support/fixed-clock';
import { recordSale } from '../support/sales';
import { changeData, rewriteTail } from '../support/tampering';
import { DRIVERS, createTestDatabase, type TestDatabase } from '../support/test-database';
import { startTestApp, TEST_ADMIN_KEY, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';

const alarmsIn = async (db: Database): Promise<StoredEvent['data'][]> =>
  (
    await db.query<{ data: StoredEvent['data'] }>(
      "select data from events where event_type = 'ChainAlarmRaised' order by position",
    )
  ).map((row) => row.data);

/** A chain alarm is an entry of the log (ChainAlarmRaised), whoever raised it, and raised once per finding. */
describe.each(DRIVERS)('chain alarms in the log, on %s', (driver) => {
  let app: TestApp;
  let db: Database;
  let merchant: { key: string; id: string };

  beforeEach(async () => {
    const signingKey = newSigningKey().export({ format: 'pem', type: 'pkcs8' }) as string;
    app = await startTestApp({ driver, env: { CHECKPOINT_SIGNING_KEY: signingKey, CHECKPOINT_INTERVAL: '5' } });
    db = app.app.get(DATABASE);
    const { merchant_id: merchantId } = await onboardMerchant(app);
    merchant = { key: (await issueKey(app, { role: 'merchant', merchant_id: merchantId })).key, id: merchantId };
    for (let i = 0; i < 6; i++) await recordSale(app, merchant.key, merchant.id, { subtotal_cents: 1000 + i });
    await app.app.get(ChainCheckpointer).idle();
  });

  afterEach(() => app?.close());

  it('records a verification break once, however often the broken log is verified', async () => {
    const [{ position }] = await db.query<{ position: string }>(
      "select min(position) as position from events where event_type = 'TransactionRecorded'",
    );
    await changeData(db, Number(position), ['calculation', 'cash_total_cents'], 1);
    for (let i = 0; i < 2; i++) {
      const { status, body } = await call(app, 'GET', '/admin/verify-hash-chain', { key: TEST_ADMIN_KEY });
      expect({ status, breaks: body.break_count }).toEqual({ status: 200, breaks: 1 });
    }
    const alarms = await alarmsIn(db);
    expect(alarms).toEqual([
      expect.objectContaining({
        source: 'verification',
        kind: 'modified',
        position: Number(position),
        detail: expect.stringContaining('1 break(s)'),
      }),
    ]);
    expect(alarms[0].raised_at).toEqual(expect.any(String));
  });

  it('records the signer’s refusal', async () => {
    const [{ position }] = await db.query<{ position: string }>(
      "select max(position) as position from events where event_type = 'TransactionRecorded'",
    );
    await rewriteTail(db, Number(position), ['calculation', 'cash_total_cents'], 1);
    for (let i = 0; i < 5; i++) await recordSale(app, merchant.key, merchant.id, { subtotal_cents: 2000 + i });
    const [alarm] = await waitFor('the signer’s alarm in the log', async () => {
      const alarms = await alarmsIn(db);
      return alarms.length > 0 ? alarms : undefined;
    });
    // The hashes and links were recomputed without the writer's key: the rewritten entry's authenticator no longer
    // verifies, which the signer checks before it compares the stored tree with the entries.
    expect(alarm).toMatchObject({
      source: 'signer',
      kind: 'unauthenticated',
      detail: `the entry at position ${position} carries a writer authenticator that does not verify: no service process wrote it as it is`,
    });
    expect(app.app.get(ChainCheckpointer).status()).toMatchObject({
      state: 'refused',
      alarm: { detail: alarm.detail },
    });
  });
});

describe.each(DRIVERS)('a chain alarm the log refuses, on %s', (driver) => {
  let testDb: TestDatabase;
  let db: Database;

  beforeEach(async () => {
    testDb = await createTestDatabase(driver);
    db = await testDb.open();
    await migrate(db);
  });

  afterEach(() => testDb.drop());

  it('is tried again until the log takes it, and recorded once', async () => {
    await db.query('create sequence refused_alarms');
    await db.query(
      "create function refuse_alarm() returns trigger language plpgsql as $$ begin perform nextval('refused_alarms'); raise exception 'refused'; end $$",
    );
    await db.query(
      "create trigger refuse_alarm before insert on events for each row when (new.event_type = 'ChainAlarmRaised') execute function refuse_alarm()",
    );
    const alarms = new ChainAlarms(new SqlEventStore(db, new FixedClock()), new FixedClock());
    const alarm = { source: 'test', kind: 'modified', position: 7, detail: 'entry 7 does not match its hash' };
    // The first attempt fails; raise still resolves, as its callers are already handling a failure.
    await alarms.raise(alarm);
    await alarms.raise(alarm);
    expect(await alarmsIn(db)).toEqual([]);
    const [{ last_value: lastValue }] = await db.query<{ last_value: string }>('select last_value from refused_alarms');
    expect(Number(lastValue)).toBe(1);
    await db.query('drop trigger refuse_alarm on events');
    await waitFor('the alarm recorded on a retry', async () => ((await alarmsIn(db)).length > 0 ? true : undefined));
    await alarms.raise(alarm);
    await alarms.onApplicationShutdown();
    expect(await alarmsIn(db)).toEqual([{ ...alarm, raised_at: new FixedClock().now().toISOString() }]);
  });
});
