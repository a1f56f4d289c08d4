import { CommandStep } from '../../src/platform/command-step';
import type { StoredEvent } from '../../src/platform/event-store/event-store.port';
import { migrate } from '../../src/platform/event-store/migrations';
import { SqlEventStore } from '../../src/platform/event-store/sql-event-store';
import type { Database, Sql } from '../../src/platform/event-store/sql';
import { IdempotencyStore } from '../../src/platform/idempotency/idempotency';
import { prepareProjections } from '../../src/platform/projections/runner';
import { PROJECTORS } from '../../src/projectors';
import { transactionDecider } from '../../src/transactions/transaction.decider';
import { claimRecordId } from '../../src/transactions/read-model/transaction-reads';
import { FixedClock } from '../support/fixed-clock';
import { recordCommand } from '../support/sale-commands';
import { DRIVERS, createTestDatabase, type TestDatabase } from '../support/test-database';

/** The statements each transaction sent, as the driver received them: the real database, only watched. */
function watched(db: Database): { db: Database; transactions: string[][] } {
  const transactions: string[][] = [];
  return {
    transactions,
    db: {
      driver: db.driver,
      url: db.url,
      query: (text, params) => db.query(text, params),
      close: () => db.close(),
      listen: (applicationName, channels, subscriber) => db.listen(applicationName, channels, subscriber),
      transaction: (fn) =>
        db.transaction((tx) => {
          const statements: string[] = [];
          transactions.push(statements);
          const counted: Sql = { query: (text, params) => (statements.push(text), tx.query(text, params)) };
          return fn(counted);
        }),
    },
  };
}

/** From the statement that takes the chain-head lock (locking or moving the head row) to the last before commit. */
const underLock = (statements: string[]) =>
  statements.slice(statements.findIndex((text) => /event_store_head/.test(text)));

describe.each(DRIVERS)('statements under the chain-head lock on %s', (driver) => {
  let testDb: TestDatabase;
  let db: Database;

  beforeAll(async () => {
    testDb = await createTestDatabase(driver);
    db = await testDb.open();
    await migrate(db);
    await prepareProjections(db, PROJECTORS);
  });

  afterAll(() => testDb.drop());

  /**
   * Records `size` sales the way POST /transaction does (command step, an Idempotency-Key
   * each), queued behind an append that holds the lock, so they commit as one batch.
   */
  async function batchOf(size: number): Promise<string[]> {
    const { db: counted, transactions } = watched(db);
    const clock = new FixedClock();
    const store = new SqlEventStore(counted, clock);
    const step = new CommandStep(store, new IdempotencyStore(counted, clock));
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const holder = store.append(`gate-${size}`, [{ type: 'Gate', data: {}, metadata: { schemaVersion: 1 } }], {
      expectedRevision: 'any',
      inTransaction: () => gate,
    });
    const sales = Array.from({ length: size }, (_, i) => {
      const id = `TXN-2026-11-21-B${String(size).padStart(3, '0')}${String(i).padStart(4, '0')}`;
      const request = { scope: 'key-1', key: id, fingerprint: 'f'.repeat(64), status: 201 };
      return step.run(
        {
          stream: `transaction-${id}`,
          decider: transactionDecider,
          command: recordCommand({}, { transactionId: id }),
          metadata: { schemaVersion: 1 },
          idempotency: request,
          fresh: true,
        },
        (tx, [stored]: StoredEvent[]) => {
          claimRecordId(tx, id, stored.position);
          return { id, position: stored.position };
        },
      );
    });
    open();
    await holder;
    const answers = await Promise.all(sales);
    // Every sale landed in the one transaction after the holder's, with its idempotency record; the
    // read models follow after the append.
    expect(transactions).toHaveLength(2);
    const positions = answers.map((answer) => answer.position);
    expect(new Set(positions).size).toBe(size);
    const [rows] = await db.query<{ sales: number; records: number }>(
      `select (select count(*)::int from events where data->>'transaction_id' = any($1)) as sales,
              (select count(*)::int from idempotency_keys where idempotency_key = any($1)) as records`,
      [answers.map((answer) => answer.id)],
    );
    expect(rows).toEqual({ sales: size, records: size });
    return underLock(transactions[1]);
  }

  it('does not grow with the number of appends in the batch', async () => {
    const [one, eight, sixtyFour] = [await batchOf(1), await batchOf(8), await batchOf(64)];
    // One statement: the head lock and the checks of the log and the revisions, the events, the Merkle nodes,
    // the head, the idempotency records and the check of the new records' ids against the log.
    expect(one).toHaveLength(1);
    expect(eight).toHaveLength(one.length);
    expect(sixtyFour).toHaveLength(one.length);
  });
});
