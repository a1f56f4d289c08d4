import { createPublicKey } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChainCheckpointer } from '../../src/audit/chain-checkpointer';
import { Witness } from '../../src/audit/witness';
import { loadConfig } from '../../src/platform/config/config';
import { CHECKPOINT_EVENT_TYPE, keyRing, type CheckpointData, ChainVerifier } from '@crcs/tlog';
import type { StoredEvent } from '../../src/platform/event-store/event-store.port';
import { migrate } from '../../src/platform/event-store/migrations';
import { SqlEventStore } from '../../src/platform/event-store/sql-event-store';
import type { Database } from '../../src/platform/event-store/sql';
import { newSigningKey } from '../../packages/tlog/test/chain';
import { FixedClock } from '../support/fixed-clock';
import { DRIVERS, createTestDatabase, type TestDatabase } from '../support/test-database';
import { waitFor } from '../support/wait';

const INTERVAL = 10;
const key = newSigningKey();
const record = (i: number) => ({ type: 'Recorded', data: { i }, metadata: { schemaVersion: 1 } });

/** Each process's witness file, in a folder of the test's own. */
let folder: string;
beforeEach(() => (folder = mkdtempSync(join(tmpdir(), 'crcs-signer-'))));
afterEach(() => rmSync(folder, { recursive: true, force: true }));
let processes = 0;

async function startCheckpointing(
  db: Database,
  store = new SqlEventStore(db, new FixedClock()),
  clock = new FixedClock(),
): Promise<{ store: SqlEventStore; checkpointer: ChainCheckpointer }> {
  const config = loadConfig({
    CHECKPOINT_INTERVAL: String(INTERVAL),
    CHECKPOINT_SIGNING_KEY: key.export({ format: 'pem', type: 'pkcs8' }) as string,
    CHECKPOINT_WITNESS_FILE: join(folder, `witness-${++processes}.ndjson`),
  });
  const checkpointer = new ChainCheckpointer(store, db, config, clock, new Witness(config));
  await checkpointer.onModuleInit();
  checkpointer.onApplicationBootstrap();
  return { store, checkpointer };
}

/**
 * Every checkpoint is numbered in turn, vouches for the entry right before it and follows the
 * previous one by an interval or more, but the shutdown's, which signs whatever was left and ends the log.
 */
function expectCheckpointsEveryInterval(log: StoredEvent[]): void {
  const checkpoints = log.filter((e) => e.type === CHECKPOINT_EVENT_TYPE);
  expect(checkpoints.length).toBeGreaterThan(0);
  checkpoints.forEach((e, i) => {
    const data = e.data as unknown as CheckpointData;
    expect(e.streamId).toBe(`checkpoint-${i + 1}`);
    expect(data).toMatchObject({ checkpoint: i + 1, position: e.position - 1, hash: e.prevHash });
    const previous = i === 0 ? 0 : (checkpoints[i - 1].data as unknown as CheckpointData).position;
    const atShutdown = i === checkpoints.length - 1 && e.position === log.length;
    if (!atShutdown) expect(data.position - previous).toBeGreaterThanOrEqual(INTERVAL);
  });
  const last = checkpoints[checkpoints.length - 1].data as unknown as CheckpointData;
  expect(log.length - last.position).toBe(1);
  const verifier = new ChainVerifier({ checkpointKeys: keyRing([createPublicKey(key)]) });
  log.forEach((e) => verifier.push(e));
  expect(verifier.result()).toMatchObject({
    break_count: 0,
    checkpoints: { count: checkpoints.length, signatures_checked: true },
  });
}

describe.each(DRIVERS)('signed checkpoints on %s', (driver) => {
  let testDb: TestDatabase;
  let db: Database;

  beforeEach(async () => {
    testDb = await createTestDatabase(driver);
    db = await testDb.open();
    await migrate(db);
  });

  afterEach(() => testDb.drop());

  it('follows every CHECKPOINT_INTERVAL entries, right after the head each vouches for', async () => {
    const { store, checkpointer } = await startCheckpointing(db);
    for (let i = 0; i < 45; i++) await store.append(`transaction-${i}`, [record(i)], { expectedRevision: 0 });
    await Promise.all(
      Array.from({ length: 30 }, (_, i) => store.append(`burst-${i}`, [record(i)], { expectedRevision: 0 })),
    );
    await checkpointer.onApplicationShutdown();
    expectCheckpointsEveryInterval(await store.readAll(1, 1000));
  });

  it('signs a quiet log by age: CHECKPOINT_MAX_AGE_S after the last head, however few entries it grew by', async () => {
    const clock = new FixedClock();
    const { store, checkpointer } = await startCheckpointing(db, undefined, clock);
    const checkpoints = async () =>
      (await store.readAll(1, 1000)).filter((e) => e.type === CHECKPOINT_EVENT_TYPE).map((e) => e.data.tree_size);
    await store.append('transaction-1', [record(1)], { expectedRevision: 0 });
    clock.advance(4_999);
    await checkpointer.signDue();
    expect(await checkpoints()).toEqual([]);
    clock.advance(1);
    await checkpointer.signDue();
    expect(await checkpoints()).toEqual([1]);
    // Nothing new: nothing to sign, however old the head.
    clock.advance(3_600_000);
    await checkpointer.signDue();
    expect(await checkpoints()).toEqual([1]);
    await store.append('transaction-2', [record(2)], { expectedRevision: 0 });
    await checkpointer.signDue();
    expect(await checkpoints()).toEqual([1, 3]);
    // At shutdown, whatever grew is signed, however young: nothing acknowledged is left unsigned while the service is down.
    await store.append('transaction-3', [record(3)], { expectedRevision: 0 });
    await checkpointer.onApplicationShutdown();
    expect(await checkpoints()).toEqual([1, 3, 5]);
  });

  it('tries a failed signing again without waiting for another append, so a quiet log still gets its head', async () => {
    // The database refuses checkpoints, as an outage would, until the trigger is dropped; the
    // sequence counts the refusals, since nextval outlives the rolled-back transaction.
    await db.query('create sequence refused_checkpoints');
    await db.query(
      "create function refuse_checkpoint() returns trigger language plpgsql as $$ begin perform nextval('refused_checkpoints'); raise exception 'refused'; end $$",
    );
    await db.query(
      `create trigger refuse_checkpoint before insert on events for each row when (new.event_type = '${CHECKPOINT_EVENT_TYPE}') execute function refuse_checkpoint()`,
    );
    const { store, checkpointer } = await startCheckpointing(db);
    for (let i = 0; i < INTERVAL; i++) await store.append(`transaction-${i}`, [record(i)], { expectedRevision: 0 });
    const refused = async () =>
      (await db.query<{ is_called: boolean }>('select is_called from refused_checkpoints'))[0].is_called;
    await waitFor('the signer to try to append a checkpoint', refused);
    await db.query('drop trigger refuse_checkpoint on events');
    // No append follows: only the signer's own retry can write the head.
    await checkpointer.idle();
    await checkpointer.onApplicationShutdown();
    expectCheckpointsEveryInterval(await store.readAll(1, 1000));
  });
});

it('never writes a checkpoint twice when two service processes share one PostgreSQL database', async () => {
  const testDb = await createTestDatabase();
  try {
    const [dbA, dbB] = [await testDb.open(), await testDb.open()];
    await migrate(dbA);
    const [a, b] = [await startCheckpointing(dbA), await startCheckpointing(dbB)];
    await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        (i % 2 ? a : b).store.append(`transaction-${i}`, [record(i)], { expectedRevision: 0 }),
      ),
    );
    await Promise.all([a.checkpointer.onApplicationShutdown(), b.checkpointer.onApplicationShutdown()]);
    expectCheckpointsEveryInterval(await a.store.readAll(1, 1000));
  } finally {
    await testDb.drop();
  }
});
