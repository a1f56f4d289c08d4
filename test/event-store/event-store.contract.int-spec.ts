import { createPublicKey, type KeyObject } from 'node:crypto';
import {
  CHECKPOINT_EVENT_TYPE,
  checkpointStream,
  keyRing,
  ChainVerifier,
  type ChainHead,
  GENESIS_HASH,
  entryHash,
  treeRoot,
} from '@crcs/tlog';
import { RevisionConflictError, UnstorableValueError } from '../../src/platform/event-store/event-store.errors';
import type { BatchWriter, NewEvent, StoredEvent } from '../../src/platform/event-store/event-store.port';
import { fromStoredTree } from '../../src/platform/event-store/merkle-store';
import { MIGRATIONS, migrate } from '../../src/platform/event-store/migrations';
import { SqlEventStore } from '../../src/platform/event-store/sql-event-store';
import type { Database } from '../../src/platform/event-store/sql';
import { FixedClock } from '../support/fixed-clock';
import { newSigningKey, treeHeadCheckpoint } from '../../packages/tlog/test/chain';
import { changeData, deleteEntry, entryAt, insertForgedEntry, rewriteTail, swapEntries } from '../support/tampering';
import { DRIVERS, createTestDatabase, type TestDatabase } from '../support/test-database';

const meta = { schemaVersion: 1, merchantId: 'm-1' };
const ev = (type: string, data: Record<string, unknown> = {}): NewEvent => ({ type, data, metadata: meta });
const checkpointEvent = (key: KeyObject, n: number, head: ChainHead, root: Buffer): NewEvent => ({
  type: CHECKPOINT_EVENT_TYPE,
  data: { ...treeHeadCheckpoint(key, n, head, root) },
  metadata: meta,
});

async function verify(store: SqlEventStore, checkpointKeys?: ReadonlyMap<string, KeyObject>) {
  const verifier = new ChainVerifier({ checkpointKeys });
  for (let from = 1; ;) {
    const page = await store.readAll(from, 100);
    page.forEach((e) => verifier.push(e));
    if (page.length < 100) return verifier.result();
    from = page[page.length - 1].position + 1;
  }
}

describe.each(DRIVERS)('event store contract on %s', (driver) => {
  let testDb: TestDatabase;
  let db: Database;
  let store: SqlEventStore;
  const clock = new FixedClock();

  beforeEach(async () => {
    testDb = await createTestDatabase(driver);
    db = await testDb.open();
    await migrate(db);
    store = new SqlEventStore(db, clock);
  });

  afterEach(() => testDb.drop());

  it('appends and reads back streams and the global log, hash-linked from genesis', async () => {
    const a = await store.append('transaction-a', [ev('Opened', { cents: 105 }), ev('Closed')], {
      expectedRevision: 0,
    });
    clock.advance(1000);
    await store.append('transaction-b', [ev('Opened', { note: 'naïve ✓', nested: { z: 1, a: [1, 2] } })], {
      expectedRevision: 0,
    });

    const streamA = await store.readStream('transaction-a');
    expect(streamA).toEqual(a);
    expect(streamA.map((e) => [e.position, e.streamRevision, e.type])).toEqual([
      [1, 1, 'Opened'],
      [2, 2, 'Closed'],
    ]);
    expect(streamA[0].data).toEqual({ cents: 105 });

    const all = await store.readAll(1, 10);
    expect(all.map((e) => e.position)).toEqual([1, 2, 3]);
    expect(all[2].data).toEqual({ note: 'naïve ✓', nested: { z: 1, a: [1, 2] } });
    expect(all[2].recordedAt).toBe('2026-11-21T12:00:01.000Z');
    expect(all[0].prevHash).toBe(GENESIS_HASH);
    for (let i = 0; i < all.length; i++) {
      expect(all[i].hash).toBe(entryHash(all[i]));
      if (i > 0) expect(all[i].prevHash).toBe(all[i - 1].hash);
    }
    expect(await store.head()).toEqual({ position: 3, hash: all[2].hash });
    expect(await store.readAll(3, 10)).toHaveLength(1);
  });

  it('rejects a stale expected revision with a typed conflict and writes nothing', async () => {
    await store.append('tipPool-1', [ev('Created')], { expectedRevision: 0 });
    const head = await store.head();

    const stale = store.append('tipPool-1', [ev('Distributed')], { expectedRevision: 0 });
    await expect(stale).rejects.toBeInstanceOf(RevisionConflictError);
    await expect(stale).rejects.toMatchObject({ streamId: 'tipPool-1', expectedRevision: 0, actualRevision: 1 });
    expect(await store.head()).toEqual(head);

    await store.append('tipPool-1', [ev('Distributed')], { expectedRevision: 1 });
    expect((await store.readStream('tipPool-1')).map((e) => e.streamRevision)).toEqual([1, 2]);
  });

  it('keeps positions gap-free when some of a concurrent batch conflict', async () => {
    await store.append('contended', [ev('Created')], { expectedRevision: 0 });
    const results = await Promise.allSettled(
      Array.from({ length: 60 }, (_, i) =>
        i % 3 === 0
          ? store.append('contended', [ev('Changed')], { expectedRevision: 1 })
          : store.append(`free-${i}`, [ev('Created'), ev('Changed')], { expectedRevision: 0 }),
      ),
    );
    const conflicts = results.filter((r) => r.status === 'rejected');
    // Of the twenty appends that expect revision 1, exactly one can win.
    expect(conflicts).toHaveLength(19);
    conflicts.forEach((r) => expect(r.reason).toBeInstanceOf(RevisionConflictError));

    const all = await store.readAll(1, 1000);
    expect(all.map((e) => e.position)).toEqual(Array.from({ length: 1 + 1 + 40 * 2 }, (_, i) => i + 1));
    expect(await verify(store)).toMatchObject({ total_count: 82, verified_count: 82, break_count: 0 });
  });

  it('refuses a NUL character before it reaches the database', async () => {
    await expect(
      store.append('s-nul', [ev('Created', { name: 'a\u0000b' })], { expectedRevision: 0 }),
    ).rejects.toBeInstanceOf(UnstorableValueError);
    expect(await store.head()).toEqual({ position: 0, hash: GENESIS_HASH });
  });

  it('rolls back the events when the work done in the same transaction fails', async () => {
    const failing = store.append('s-1', [ev('Created')], {
      expectedRevision: 0,
      inTransaction: async () => {
        throw new Error('idempotency record could not be saved');
      },
    });
    await expect(failing).rejects.toThrow('idempotency record could not be saved');
    expect(await store.readStream('s-1')).toEqual([]);
    expect((await store.head()).position).toBe(0);
  });

  it('writes the rows a batch gathers once, and when that fails only the append that gave the bad row fails', async () => {
    const calls: string[][] = [];
    const writer: BatchWriter<string> = {
      statement: (rows, params, when) => {
        params.push(rows);
        return `select unnest($${params.length}::text[]) as row where ${when}`;
      },
      check: (_rows, returned) => {
        const rows = (returned as { row: string }[]).map(({ row }) => row);
        calls.push(rows);
        if (rows.includes('bad')) throw new Error('bad row');
      },
    };
    const results = await Promise.allSettled(
      ['first', 'bad', 'c', 'd'].map((row) =>
        store.append(`w-${row}`, [ev('Created')], {
          expectedRevision: 0,
          inTransaction: async (tx) => tx.writeLater(writer, row),
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toEqual(new Error('bad row'));
    // The first append commits alone; the three queued behind it are written together, then again one by one.
    expect(calls).toEqual([['first'], ['bad', 'c', 'd'], ['bad'], ['c'], ['d']]);
    expect(await store.readStream('w-bad')).toEqual([]);
    expect(await verify(store)).toMatchObject({ total_count: 3, break_count: 0 });
  });

  it('tells subscribers about committed events only', async () => {
    const seen: StoredEvent[][] = [];
    const unsubscribe = store.subscribe((events) => seen.push(events));
    await store.append('s-2', [ev('Created')], { expectedRevision: 0 });
    await expect(store.append('s-2', [ev('Created')], { expectedRevision: 0 })).rejects.toThrow();
    unsubscribe();
    await store.append('s-3', [ev('Created')], { expectedRevision: 0 });
    expect(seen.flat().map((e) => e.streamId)).toEqual(['s-2']);
  });

  it('applies migrations once, however often it starts', async () => {
    await migrate(db);
    const rows = await db.query<{ version: number }>('select version from schema_migrations order by version');
    expect(rows).toEqual(MIGRATIONS.map(({ version }) => ({ version })));
  });

  it("compresses a large entry with lz4 where the server was built with it, else with PostgreSQL's default", async () => {
    const [{ lz4 }] = await db.query<{ lz4: boolean }>(
      `select 'lz4' = any(enumvals) as lz4 from pg_settings where name = 'default_toast_compression'`,
    );
    const [entry] = await store.append('large', [ev('Large', { notes: 'a rule with long notes. '.repeat(200) })], {
      expectedRevision: 0,
    });
    const [row] = await db.query<{ method: string }>(
      'select pg_column_compression(data) as method from events where position = $1',
      [entry.position],
    );
    expect(row.method).toBe(lz4 ? 'lz4' : 'pglz');
  });

  it('keeps one unbroken chain under 500 concurrent appends', async () => {
    const appends = Array.from({ length: 500 }, (_, i) =>
      store.append(`transaction-${i}`, [ev('Recorded', { i })], { expectedRevision: 0 }),
    );
    await Promise.all(appends);
    expect(await verify(store)).toMatchObject({ total_count: 500, verified_count: 500, break_count: 0, breaks: [] });
  });

  describe('tampering with SQL, found by the verifier', () => {
    const key = newSigningKey();
    const keys = keyRing([createPublicKey(key)]);

    beforeEach(async () => {
      for (let i = 1; i <= 8; i++)
        await store.append(`t-${i}`, [ev('Recorded', { cents: i * 100 })], { expectedRevision: 0 });
    });

    it('a changed amount', async () => {
      const victim = await entryAt(db, 3);
      await changeData(db, 3, ['cents'], 1);
      expect(await verify(store)).toMatchObject({
        total_count: 8,
        verified_count: 7,
        breaks: [{ kind: 'modified', position: 3, entry_id: victim.entryId, stored_hash: victim.hash }],
      });
    });

    it('a deleted entry', async () => {
      const [deleted, after] = [await entryAt(db, 3), await entryAt(db, 4)];
      await deleteEntry(db, 3);
      expect(await verify(store)).toMatchObject({
        total_count: 7,
        breaks: [
          {
            kind: 'deleted',
            position: 4,
            entry_id: after.entryId,
            missing_positions: { from: 3, to: 3 },
            actual_prev_hash: deleted.hash,
          },
        ],
      });
    });

    it('two swapped entries', async () => {
      const [third, sixth] = [await entryAt(db, 3), await entryAt(db, 6)];
      await swapEntries(db, 3, 6);
      expect((await verify(store)).breaks).toEqual([
        expect.objectContaining({ kind: 'reordered', position: 3, entry_id: sixth.entryId, original_position: 6 }),
        expect.objectContaining({ kind: 'reordered', position: 6, entry_id: third.entryId, original_position: 3 }),
      ]);
    });

    it('an inserted entry, forged with a correct hash and link', async () => {
      const forged = await insertForgedEntry(db, 4, { cents: 5 });
      expect(await verify(store)).toMatchObject({
        total_count: 9,
        verified_count: 8,
        breaks: [{ kind: 'inserted', position: 4, entry_id: forged.entryId }],
      });
    });

    it('an entry rewritten with a recomputed hash, at the link to the next one', async () => {
      const next = await entryAt(db, 3);
      await changeData(db, 2, ['cents'], 1);
      const forgedHash = entryHash(await entryAt(db, 2));
      await db.query('update events set hash = $1 where position = 2', [forgedHash]);
      expect((await verify(store)).breaks).toEqual([
        expect.objectContaining({
          kind: 'modified',
          position: 3,
          entry_id: next.entryId,
          expected_prev_hash: forgedHash,
          actual_prev_hash: next.prevHash,
        }),
      ]);
    });

    it('a rewrite of the whole tail, caught by a signed checkpoint appended after the head it vouches for', async () => {
      const checkpointed = await store.append(
        checkpointStream(1),
        async (head, tx) => [
          checkpointEvent(key, 1, head, await fromStoredTree(tx, (node) => treeRoot(head.position, node))),
        ],
        { expectedRevision: 0 },
      );
      expect(checkpointed[0]).toMatchObject({
        position: 9,
        data: { checkpoint: 1, position: 8, hash: checkpointed[0].prevHash },
      });
      await store.append('t-9', [ev('Recorded', { cents: 900 })], { expectedRevision: 0 });
      expect(await verify(store, keys)).toMatchObject({
        break_count: 0,
        checkpoints: { count: 1, signatures_checked: true },
      });

      const covered = await entryAt(db, 8);
      await rewriteTail(db, 5, ['cents'], 1);
      expect((await verify(store)).break_count).toBe(1);
      expect((await verify(store, keys)).breaks).toEqual([
        expect.objectContaining({
          kind: 'modified',
          position: 8,
          entry_id: covered.entryId,
          expected_hash: covered.hash,
          checkpoint: { checkpoint: 1, position: 9, entry_id: checkpointed[0].entryId },
        }),
      ]);
    });
  });
});

describe('two store instances on one PostgreSQL database', () => {
  it('append 500 events concurrently into one unbroken chain', async () => {
    // Empty: the two instances run the migrations concurrently too.
    const testDb = await createTestDatabase(undefined, { empty: true });
    try {
      const [dbA, dbB] = [await testDb.open(), await testDb.open()];
      await Promise.all([migrate(dbA), migrate(dbB)]);
      const clock = new FixedClock();
      const stores = [new SqlEventStore(dbA, clock), new SqlEventStore(dbB, clock)];
      await Promise.all(
        Array.from({ length: 500 }, (_, i) =>
          stores[i % 2].append(`transaction-${i}`, [ev('Recorded', { i, by: i % 2 })], { expectedRevision: 0 }),
        ),
      );
      const result = await verify(stores[0]);
      expect(result).toMatchObject({ total_count: 500, verified_count: 500, break_count: 0, breaks: [] });
      const written = await stores[1].readAll(1, 1000);
      expect(new Set(written.map((e) => e.data.by))).toEqual(new Set([0, 1]));
      expect(await stores[1].head()).toEqual({ position: 500, hash: written[499].hash });
    } finally {
      await testDb.drop();
    }
  });

  it('append to one stream concurrently, each reading the revision the other committed while it waited for the lock', async () => {
    const testDb = await createTestDatabase();
    try {
      const [dbA, dbB] = [await testDb.open(), await testDb.open()];
      await migrate(dbA);
      const clock = new FixedClock();
      const stores = [new SqlEventStore(dbA, clock), new SqlEventStore(dbB, clock)];
      await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          stores[i % 2].append('transaction-shared', [ev('Recorded', { i })], { expectedRevision: 'any' }),
        ),
      );
      const stream = await stores[0].readStream('transaction-shared');
      expect(stream.map((e) => e.streamRevision)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
      expect(await verify(stores[0])).toMatchObject({ total_count: 200, verified_count: 200, break_count: 0 });
    } finally {
      await testDb.drop();
    }
  });
});
