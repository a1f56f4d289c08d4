import { createPublicKey, type KeyObject } from 'node:crypto';
import {
  keyRing,
  signTreeHead,
  ChainVerifier,
  type VerifierOptions,
  MerkleFrontier,
  leafHash,
  writerKey,
  writerMac,
  canonicalJson,
  sha256Hex,
  HashPool,
} from '@crcs/tlog';
import { JsonText, insertRows } from '../../src/platform/event-store/sql';
import { buildChain, newSigningKey } from '../../packages/tlog/test/chain';
import type { NewEvent, StoredEvent } from '../../src/platform/event-store/event-store.port';
import { migrate } from '../../src/platform/event-store/migrations';
import { SqlEventStore } from '../../src/platform/event-store/sql-event-store';
import type { Database } from '../../src/platform/event-store/sql';
import { readStoredEntries } from '../../src/platform/verification/stored-entries';
import { STORED_POOL, verifyStoredLog } from '../../src/platform/verification/stored-verification';
import { FixedClock } from '../support/fixed-clock';
import { changeData, deleteEntry, swapEntries } from '../support/tampering';
import { DRIVERS, createTestDatabase, type TestDatabase } from '../support/test-database';

const event = (i: number): NewEvent => ({
  type: 'Recorded',
  data: { cents: 100 + i, note: i % 3 === 0 ? 'naïve ✓ "quoted" \\ \u0001' : null, z: { b: [i, 1.5, true], a: {} } },
  metadata: { schemaVersion: 1, merchantId: `m-${i % 4}`, actor: { keyId: 'key_1', role: 'merchant' } },
});

describe.each(DRIVERS)('the log as stored, on %s', (driver) => {
  let testDb: TestDatabase;
  let db: Database;
  const clock = new FixedClock();

  beforeEach(async () => {
    testDb = await createTestDatabase(driver);
    db = await testDb.open();
    await migrate(db);
    const store = new SqlEventStore(db, clock);
    for (let i = 1; i <= 40; i++) {
      await store.append(`transaction-${i % 7}`, [event(i)], { expectedRevision: 'any' });
      clock.advance(1234);
    }
  });

  afterEach(() => testDb.drop());

  /** The verifier as it was before the stored bytes: every entry read back as objects and its canonical JSON rebuilt. */
  async function rebuilt() {
    const verifier = new ChainVerifier();
    const rows = await db.query<{ position: string }>('select position from events order by position');
    const store = new SqlEventStore(db, clock);
    for (const e of await store.readAll(1, rows.length + 10)) verifier.push(e);
    return verifier.result();
  }

  const fromStored = (parallel: boolean) => verifyStoredLog(db, 1, 100, {}, parallel);

  it('keeps the very bytes each hash was computed over', async () => {
    let count = 0;
    for await (const batch of readStoredEntries(db, 1, 100)) {
      for (const { bytes, event: e } of batch) {
        expect(sha256Hex(bytes)).toBe(e.hash);
        expect(e.data).toEqual(event(e.position).data);
        count += 1;
      }
    }
    expect(count).toBe(40);
  });

  it('verifies as the rebuilt canonical JSON does, on worker threads or not, tampered or not', async () => {
    expect((await fromStored(true)).break_count).toBe(0);
    await changeData(db, 7, ['cents'], 1);
    await swapEntries(db, 12, 15);
    await deleteEntry(db, 30);
    const want = await rebuilt();
    expect(want.break_count).toBe(4);
    expect(await fromStored(false)).toEqual(want);
    expect(await fromStored(true)).toEqual(want);
  }, 60_000);

  it('verifies a log of several ranges, read ahead on a worker thread, as on its own thread, tampered or not', async () => {
    // Past 1,000 entries a worker thread reads ranges of 500 while it checks the one before.
    const store = new SqlEventStore(db, clock);
    for (let i = 0; i < 12; i++)
      await store.append(
        `transaction-bulk-${i}`,
        Array.from({ length: 100 }, (_, k) => event(41 + 100 * i + k)),
        { expectedRevision: 'any' },
      );
    const whole = (parallel: boolean) => verifyStoredLog(db, 1, 1240, {}, parallel);
    expect((await whole(true)).verified_count).toBe(1240);
    await changeData(db, 450, ['cents'], 1);
    await swapEntries(db, 700, 702);
    await deleteEntry(db, 1100);
    const want = await rebuilt();
    expect(want.break_count).toBe(4);
    expect(await whole(false)).toEqual(want);
    expect(await whole(true)).toEqual(want);
  }, 120_000);

  it('verifies rows whose texts are not canonical (written before they were kept) by rebuilding them', async () => {
    await db.query('update events set data = data::jsonb::text::json, metadata = metadata::jsonb::text::json');
    const [{ data }] = await db.query<{ data: string }>('select data::text as data from events where position = 3');
    expect(data).toContain(', '); // jsonb's own layout
    expect(await fromStored(false)).toEqual(await rebuilt());
    expect(await fromStored(true)).toEqual(await rebuilt());
    expect((await fromStored(false)).break_count).toBe(0);
  });

  it('verifies on a worker thread, without reading the log again, sales that name their rule entry', async () => {
    const store = new SqlEventStore(db, clock);
    const [rule] = await store.append(
      'jurisdiction-AZ',
      [{ type: 'JurisdictionRuleImported', data: { rule: { lookup_key: 'AZ' } }, metadata: { schemaVersion: 1 } }],
      { expectedRevision: 'any' },
    );
    const ruleEntry = { position: rule.position, hash: rule.hash };
    for (let i = 0; i < 5; i++)
      await store.append(
        `transaction-sale-${i}`,
        [{ ...event(100 + i), type: 'TransactionRecorded', data: { cents: 1000 + i, rule_entry: ruleEntry } }],
        { expectedRevision: 'any' },
      );
    // The thread's own answer: null would mean it wanted texts it did not read, and the caller read the log again.
    const pool = HashPool.start(STORED_POOL, true, true, 1);
    try {
      const onThread = await pool.run('verify', {
        url: (db as Database & { url: string }).url,
        from: 1,
        to: 100,
        options: {},
      });
      expect(onThread).toMatchObject({ break_count: 0, verified_count: 46 });
      expect(onThread).toEqual(await rebuilt());
    } finally {
      await pool.close();
    }
    // A sale whose rule entry was rewritten is a rule_reference break, on a thread as on this one.
    await changeData(db, rule.position, ['rule', 'lookup_key'], 'CA');
    const want = await rebuilt();
    expect(want.breaks).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'rule_reference' })]));
    expect(await fromStored(false)).toEqual(want);
    expect(await fromStored(true)).toEqual(want);
  }, 60_000);

  /** The tree of the chain's first `size` entries, as the service keeps it. */
  const treeOf = (chain: StoredEvent[], size: number) => {
    const tree = MerkleFrontier.empty();
    for (const e of chain.slice(0, size)) tree.append(leafHash(e.hash));
    return tree;
  };
  const witnessed = (key: KeyObject, chain: StoredEvent[], size: number) =>
    signTreeHead(key, {
      tree_size: size,
      root_hash: treeOf(chain, size).root().toString('hex'),
      timestamp: '2026-11-27T03:00:00.000Z',
    });

  // Every option a verification inside the service is given crosses to the worker thread that runs it.
  it.each<[string, number, (chain: StoredEvent[], key: KeyObject) => VerifierOptions]>([
    ['signed checkpoints', 1, () => ({})],
    ['a range from the tree before it', 61, (chain) => ({ fromPosition: 61, treeBefore: treeOf(chain, 60) })],
    [
      'tree heads kept by a witness',
      1,
      (chain, key) => ({ witness: [witnessed(key, chain, 100), witnessed(key, chain, 150)] }),
    ],
    ['writer authenticators', 1, (_, key) => ({ writerKey: writerKey(key) })],
  ])(
    'verifies on worker threads as on its own thread a log with %s, whole or tampered',
    async (_, from, more) => {
      const key = newSigningKey();
      await db.query('delete from events');
      const chain = buildChain(150, { checkpointEvery: 20, signingKey: key });
      const options = { checkpointKeys: keyRing([createPublicKey(key)]), ...more(chain, key) };
      const params: unknown[] = [];
      const rows = chain.map((e) => ({
        position: e.position,
        entry_id: e.entryId,
        stream_id: e.streamId,
        stream_revision: e.streamRevision,
        event_type: e.type,
        data: new JsonText(canonicalJson(e.data)),
        metadata: new JsonText(canonicalJson(e.metadata)),
        recorded_at: e.recordedAt,
        prev_hash: e.prevHash,
        hash: e.hash,
        writer_mac: writerMac(writerKey(key), e.hash),
      }));
      await db.query(insertRows('events', rows, params), params);
      const verify = (parallel: boolean) => verifyStoredLog(db, from, 200, options, parallel);
      const whole = await verify(true);
      expect(whole).toMatchObject({ break_count: 0, verified_count: 151 - from });
      expect(whole).toEqual(await verify(false));
      await changeData(db, 95, ['cents'], 1);
      await deleteEntry(db, 120);
      await db.query('update events set writer_mac = null where position = 140');
      const tampered = await verify(false);
      expect(tampered.break_count).toBeGreaterThan(1);
      expect(await verify(true)).toEqual(tampered);
    },
    60_000,
  );
});
