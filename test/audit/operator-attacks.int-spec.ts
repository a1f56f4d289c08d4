import { mkdir, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { ChainCheckpointer } from '../../src/audit/chain-checkpointer';
import { Witness } from '../../src/audit/witness';
import { Clock } from '../../src/platform/clock';
import { EventStore } from '../../src/platform/event-store/event-store.port';
import { writeNodes } from '../../src/platform/event-store/merkle-store';
import { MerkleFrontier, leafHash, parseWitness } from '@crcs/tlog';
import { DATABASE, type Database } from '../../src/platform/event-store/sql';
import { call, issueKey, onboardMerchant } from '../support/auth';
import { newSigningKey } from '../../packages/tlog/test/chain';
import { recordSale, saleBody } from '../support/sales';
import { changeData, entryAt, rewriteTail } from '../support/tampering';
import { DRIVERS } from '../support/test-database';
import { startTestApp, TEST_ADMIN_KEY, type TestApp } from '../support/test-app';

const INTERVAL = 5;
const REFUSED =
  "The audit log was changed behind the service's back, so nothing is recorded until an operator has looked: ";

/**
 * The operator of the database as the adversary (issue "tamper evidence against whoever runs the
 * database"): plain SQL on the running service's database, no key. Each attack must be caught by
 * name: a sale refused with 503 `CHAIN_ALARM`, the signer refusing, `/health` degraded with the alarm.
 */
describe.each(DRIVERS)('an operator attacking the log with SQL, on %s', (driver) => {
  let app: TestApp;
  let db: Database;
  let witness: Witness;
  let signer: ChainCheckpointer;
  let merchant: { key: string; id: string };

  beforeEach(async () => {
    const signingKey = newSigningKey().export({ format: 'pem', type: 'pkcs8' }) as string;
    app = await startTestApp({
      driver,
      env: { CHECKPOINT_SIGNING_KEY: signingKey, CHECKPOINT_INTERVAL: String(INTERVAL) },
    });
    db = app.app.get(DATABASE);
    witness = app.app.get(Witness);
    signer = app.app.get(ChainCheckpointer);
    const { merchant_id: merchantId } = await onboardMerchant(app);
    merchant = { key: (await issueKey(app, { role: 'merchant', merchant_id: merchantId })).key, id: merchantId };
    await sell(12);
  });

  afterEach(() => app?.close());

  async function sell(count: number): Promise<void> {
    for (let i = 0; i < count; i++) await recordSale(app, merchant.key, merchant.id, { subtotal_cents: 1000 + i });
    await signer.idle();
  }

  const sale = () => call(app, 'POST', '/transaction', { key: merchant.key, body: saleBody(merchant.id, {}) });
  const health = () => call(app, 'GET', '/health');
  const signedSize = async () => (await witness.heads()).at(-1)!.tree_size;
  const headPosition = async () =>
    Number((await db.query<{ position: string }>('select position from event_store_head'))[0].position);

  /** The service after a restart: a new signer over the same database and witness file. */
  async function restartedSigner(): Promise<ChainCheckpointer> {
    const restarted = new ChainCheckpointer(
      app.app.get(EventStore),
      db,
      app.config,
      app.app.get(Clock),
      new Witness(app.config),
    );
    await restarted.onModuleInit();
    await restarted.signDue();
    await restarted.onApplicationShutdown();
    return restarted;
  }

  async function expectDegradedWith(alarm: Record<string, unknown>): Promise<void> {
    const { status, body } = await health();
    expect(status).toBe(503);
    expect(body.status).toBe('degraded');
    expect(body.chain.alarms).toContainEqual(alarm);
  }

  it('deleting acknowledged sales and moving the head back: the next sale is refused, nothing reuses their positions', async () => {
    const appended = await headPosition();
    const keep = appended - 3;
    const lastKept = await entryAt(db, keep);
    await db.query('delete from events where position > $1', [keep]);
    await db.query('update event_store_head set position = $1, hash = $2', [keep, lastKept.hash]);

    const detail = `this process appended up to entry ${appended}, but the log now ends at ${keep}: acknowledged entries were cut from its end and the head moved back`;
    expect(await sale()).toMatchObject({ status: 503, body: { error: 'CHAIN_ALARM', message: REFUSED + detail } });
    expect(await headPosition()).toBe(keep);
    await expectDegradedWith({ source: 'event-store', kind: 'deleted', position: keep + 1, detail });
  });

  it('a row inserted past the head: every sale is a 503 naming it, never a 500', async () => {
    const head = await headPosition();
    const last = await entryAt(db, head);
    await db.query(
      `insert into events (position, entry_id, stream_id, stream_revision, event_type, data, metadata, recorded_at, prev_hash, hash)
       values ($1, 'a4b1c2d3-0000-4000-8000-000000000001', 'transaction-FORGED', 1, 'TransactionRecorded', '{}', '{}', now(), $2, $3)`,
      [head + 1, last.hash, 'f'.repeat(64)],
    );
    const detail = `the log holds entries ${head + 1} to ${head + 1} past its head (${head}): they were written behind the service's back`;
    for (let i = 0; i < 2; i++)
      expect(await sale()).toMatchObject({ status: 503, body: { error: 'CHAIN_ALARM', message: REFUSED + detail } });
    await expectDegradedWith({ source: 'event-store', kind: 'inserted', position: head + 1, detail });
  });

  it('rolling the database back to a backup: the restarted signer refuses, the witness is ahead of the log', async () => {
    const tables = ['events', 'merkle_nodes', 'event_store_head'];
    for (const table of tables) await db.query(`create table backup_${table} as select * from ${table}`);
    await sell(2 * INTERVAL);
    const signed = await signedSize();
    const backupEnd = Number(
      (await db.query<{ position: string }>('select position from backup_event_store_head'))[0].position,
    );
    expect(signed).toBeGreaterThan(backupEnd);
    for (const table of tables) await db.query(`delete from ${table}`);
    for (const table of tables) await db.query(`insert into ${table} select * from backup_${table}`);

    const restarted = await restartedSigner();
    expect(restarted.status()).toMatchObject({
      state: 'refused',
      alarm: {
        kind: 'deleted',
        position: backupEnd,
        detail: `the log ends at entry ${backupEnd}, but a tree head of size ${signed} was signed: entries were cut from its end`,
        missing_positions: { from: backupEnd + 1, to: signed },
      },
    });
  });

  it('rewriting a tail with every hash and tree node recomputed, and deleting the checkpoints: the signer refuses it against the witness', async () => {
    const [{ position }] = await db.query<{ position: string }>(
      "select min(position) as position from events where event_type = 'TransactionRecorded'",
    );
    const from = Number(position);
    // The tail is the first sale and all after it. The log opens with the boundary, the imported rules and a
    // checkpoint signed before the first sale: those are left as they are, the checkpoints in the tail deleted.
    await db.query("delete from events where event_type = 'ChainCheckpointed' and position > $1", [from]);
    // Close the gaps the checkpoints left, then recompute every hash from the sale on, and the whole tree.
    await db.query('update events set position = -position where position > $1', [from]);
    await db.query(
      'update events set position = $1 + t.r from (select position as p, row_number() over (order by position desc) as r from events where position < 0) t where position = t.p',
      [from],
    );
    const [{ position: firstSale }] = await db.query<{ position: string }>(
      "select min(position) as position from events where event_type = 'TransactionRecorded'",
    );
    expect(Number(firstSale)).toBe(from);
    const [{ n }] = await db.query<{ n: string }>('select count(*) as n from events');
    await rewriteTail(db, from, ['calculation', 'cash_total_cents'], 1);
    await db.query('update event_store_head set position = $1', [Number(n)]);
    await db.query('delete from merkle_nodes');
    const tree = MerkleFrontier.empty();
    for (const { hash } of await db.query<{ hash: string }>('select hash from events order by position'))
      await writeNodes(db, tree.append(leafHash(hash)));

    const restarted = new ChainCheckpointer(
      app.app.get(EventStore),
      db,
      app.config,
      app.app.get(Clock),
      new Witness(app.config),
    );
    await restarted.onModuleInit();
    await restarted.reverify();
    await restarted.onApplicationShutdown();
    // Re-verifying the first signed span, it meets the first rewritten entry: its writer authenticator no longer verifies.
    expect(restarted.status()).toMatchObject({
      state: 'refused',
      alarm: {
        kind: 'unauthenticated',
        position: from,
        detail: `the entry at position ${from} carries a writer authenticator that does not verify: no service process wrote it as it is`,
      },
    });
  });

  it('editing a signed entry: the re-verification names it', async () => {
    const [{ position }] = await db.query<{ position: string }>(
      "select min(position) as position from events where event_type = 'TransactionRecorded'",
    );
    expect(Number(position)).toBeLessThanOrEqual(await signedSize());
    await changeData(db, Number(position), ['calculation', 'cash_total_cents'], 1);
    expect(await signer.reverify()).toBe(true);
    const detail = `the entry at position ${position} does not match its stored hash`;
    expect(signer.status()).toMatchObject({
      state: 'refused',
      alarm: { kind: 'modified', position: Number(position), detail },
    });
    await expectDegradedWith({ source: 'signer', kind: 'modified', position: Number(position), detail });
  });

  describe("the signer's state, its witness file", () => {
    async function expectWitnessRefusal(detail: string): Promise<void> {
      await signer.reverify();
      expect(signer.status()).toMatchObject({ state: 'refused', alarm: { kind: 'witness', detail } });
      await expectDegradedWith({ source: 'signer', kind: 'witness', position: 0, detail });
      // A verification cannot check the heads it must: refused, not answered with less than it seems.
      const verification = await call(app, 'GET', '/admin/verify-hash-chain', { key: TEST_ADMIN_KEY });
      expect(verification).toMatchObject({
        status: 503,
        body: { error: 'CHAIN_ALARM', message: `The log cannot be verified against its signed heads: ${detail}` },
      });
      // No head is signed any more, however far the log grows.
      const signedBefore = (
        await db.query<{ n: string }>("select count(*) as n from events where event_type = 'ChainCheckpointed'")
      )[0].n;
      await sell(2 * INTERVAL);
      expect(
        (await db.query<{ n: string }>("select count(*) as n from events where event_type = 'ChainCheckpointed'"))[0].n,
      ).toBe(signedBefore);
    }

    it('corrupted', async () => {
      const lines = (await readFile(witness.path, 'utf8')).split('\n');
      lines[1] = lines[1].replace('"tree_size"', '"tree_size":');
      await writeFile(witness.path, lines.join('\n'));
      await expectWitnessRefusal(`the witness file ${witness.path} is corrupt: witness line 2 is not JSON`);
    });

    it('torn: cut in the middle of its last line', async () => {
      const { size } = await stat(witness.path);
      await truncate(witness.path, size - 10);
      await expectWitnessRefusal(
        `the witness file ${witness.path} ends in an incomplete line: it was torn or truncated`,
      );
    });

    it('emptied', async () => {
      await truncate(witness.path, 0);
      await expectWitnessRefusal(`the witness file ${witness.path} is empty: it was truncated`);
    });

    it('deleted while the service runs, and at a restart: never started afresh', async () => {
      await rm(witness.path);
      await expectWitnessRefusal(`the witness file ${witness.path} is missing: it was deleted or moved`);
      const restarted = await restartedSigner();
      expect(restarted.status().alarm).toMatchObject({
        kind: 'witness',
        detail: `the witness file ${witness.path} is missing, but the log already holds ${await headPosition()} entries: it was deleted or moved. Restore it (or copy it from another process signing this log); the signer will not start afresh`,
      });
      await expect(readFile(witness.path)).rejects.toMatchObject({ code: 'ENOENT' });
    });

    it('unreadable (a folder where the file was, which fails the read even as root), and at a restart: never started afresh', async () => {
      // chmod 000 would not do: tests may run as root, whom no mode keeps from reading.
      await rm(witness.path);
      await mkdir(witness.path);
      const detail = `the witness file ${witness.path} cannot be read (EISDIR)`;
      await expectWitnessRefusal(detail);
      const restarted = await restartedSigner();
      expect(restarted.status()).toMatchObject({ state: 'refused', alarm: { kind: 'witness', detail } });
      expect((await stat(witness.path)).isDirectory()).toBe(true);
    });

    it('is created on an empty log with the signed head of the empty tree, and ends every head with a newline', async () => {
      const text = await readFile(witness.path, 'utf8');
      expect(text.endsWith('}\n')).toBe(true);
      expect(parseWitness(text)[0]).toMatchObject({
        tree_size: 0,
        root_hash: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      });
    });
  });
});
