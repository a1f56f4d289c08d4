import type { Database } from '../../src/platform/event-store/sql';
import { DRIVERS, createTestDatabase, type TestDatabase } from '../support/test-database';
import { waitFor } from '../support/wait';

/** What a subscriber heard, in order. */
function recorder() {
  const heard: string[] = [];
  const until = (predicate: () => boolean) => waitFor(() => `more; heard ${JSON.stringify(heard)}`, predicate);
  const subscriber = {
    listening: (pid: number) => heard.push(`listening ${pid}`),
    lost: () => heard.push('lost'),
    notified: (channel: string, payload: string) => heard.push(`${channel}: ${payload}`),
  };
  return { heard, until, subscriber };
}

/** The connection the key cache hears revocations on: the real server, its connection cut with SQL. */
describe.each(DRIVERS)('Database.listen on %s', (driver) => {
  let testDb: TestDatabase;
  let db: Database;

  beforeAll(async () => {
    testDb = await createTestDatabase(driver);
    db = await testDb.open();
  });

  afterAll(() => testDb.drop());

  const backendOf = async (name: string) =>
    (await db.query<{ pid: number }>('select pid from pg_stat_activity where application_name = $1', [name])).map(
      (row) => row.pid,
    );

  it('hears what commits, not what rolls back, under its own name, and listens again after its connection is terminated', async () => {
    const { heard, until, subscriber } = recorder();
    db.listen('crcs-test-listener', ['test_a', 'test_b'], subscriber);
    await until(() => heard.length === 1);
    const [first] = await backendOf('crcs-test-listener');
    expect(heard).toEqual([`listening ${first}`]);

    await db.transaction(async (tx) => {
      await tx.query(`select pg_notify('test_a', 'one')`);
      await tx.query(`select pg_notify('test_b', 'two')`);
    });
    await db
      .transaction(async (tx) => {
        await tx.query(`select pg_notify('test_a', 'rolled back')`);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await db.query(`select pg_notify('test_a', 'three')`);
    await until(() => heard.length === 4);
    expect(heard.slice(1)).toEqual(['test_a: one', 'test_b: two', 'test_a: three']);

    await db.query('select pg_terminate_backend($1)', [first]);
    await until(() => heard.length === 6);
    const [second] = await backendOf('crcs-test-listener');
    expect(second).not.toBe(first);
    expect(heard.slice(4)).toEqual(['lost', `listening ${second}`]);
    await db.query(`select pg_notify('test_b', 'four')`);
    await until(() => heard.length === 7);
    expect(heard[6]).toBe('test_b: four');
  });

  it('ends its connection with the database, and hears nothing more', async () => {
    const other = await testDb.open();
    const { heard, until, subscriber } = recorder();
    other.listen('crcs-test-closing', ['test_c'], subscriber);
    await until(() => heard.length === 1);
    await other.close();
    // The server process exits a moment after its client has gone.
    await waitFor(
      "the closed listener's backend to exit",
      async () => (await backendOf('crcs-test-closing')).length === 0,
    );
    expect(await backendOf('crcs-test-closing')).toEqual([]);
    // A listener still open hears the notification: by then the closed one would have too.
    const witness = recorder();
    db.listen('crcs-test-witness', ['test_c'], witness.subscriber);
    await witness.until(() => witness.heard.length === 1);
    await db.query(`select pg_notify('test_c', 'after close')`);
    await witness.until(() => witness.heard.includes('test_c: after close'));
    expect(heard).toEqual([heard[0]]);
  });
});
