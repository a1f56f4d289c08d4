import { mkdtemp, readFile, rm, unlink, writeFile, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { KeyObject } from 'node:crypto';
import { ChainCheckpointer } from '../../src/audit/chain-checkpointer';
import { Cosignatures } from '../../src/audit/cosignatures';
import { PgDatabase } from '../../src/platform/event-store/pg-database';
import { DATABASE, type Database } from '../../src/platform/event-store/sql';
import { verifierKey, signTreeHead, EMPTY_ROOT } from '@crcs/tlog';
import { loadFrontier } from '../../src/platform/event-store/merkle-store';
import { checkpointPublicKey, runVerifier } from '../support/audit';
import { call, issueKey, onboardMerchant } from '../support/auth';
import { newSigningKey } from '../../packages/tlog/test/chain';
import { saleBody } from '../support/sales';
import { appendForgedEntry, entryAt, rebuildTree, rewriteTail } from '../support/tampering';
import { DRIVERS, createTestDatabase, type Driver, type TestDatabase } from '../support/test-database';
import { startTestApp, TEST_ADMIN_KEY, type TestApp } from '../support/test-app';
import { WitnessProcess } from '../support/witness-process';

const INTERVAL = 5;
const unauthenticated = (position: number, boundary: number) =>
  `the entry at position ${position} carries no writer authenticator, but every entry from position ${boundary} must: no service process wrote it`;

/**
 * The operator of the database and its data folder as the adversary, against what issue 48 found
 * open: writer authentication switched off by SQL, a live rewrite of acknowledged sales made with
 * the key before they were signed, sales deleted while the service was stopped, and a signer that
 * went on signing after its witness refused or its witness file was corrupted. Each attack is made
 * with SQL (as `postgres`), on the files, and through the API; each test names what catches it and
 * asserts its exact words. The service is restarted over the same database and files.
 */
// Each test restarts the service over its database, and an embedded server takes seconds to start.
jest.setTimeout(240_000);

describe.each(DRIVERS)('the operator against the authentication boundary and the signer, on %s', (driver: Driver) => {
  let dir: string;
  let testDb: TestDatabase;
  let app: TestApp | undefined;
  let key: KeyObject;
  let merchant: { key: string; id: string };
  const file = (name: string) => join(dir, name);
  const witnessFile = () => file('operator-witness.ndjson');

  /** The service over this test's database and files, started again as often as a test needs. */
  async function start(env: Record<string, string> = {}, signing = true): Promise<TestApp> {
    app = await startTestApp({
      driver,
      env: {
        DATABASE_URL: testDb.url,
        ...(signing && { CHECKPOINT_SIGNING_KEY: key.export({ format: 'pem', type: 'pkcs8' }) as string }),
        CHECKPOINT_WITNESS_FILE: witnessFile(),
        CHECKPOINT_INTERVAL: String(INTERVAL),
        // Checkpoints by count (and at shutdown) only: which sizes get signed must not depend on the machine's speed.
        CHECKPOINT_MAX_AGE_S: '3600',
        ...env,
      },
    });
    return app;
  }

  /** Stops the service; its database and files stay. */
  async function stop(): Promise<void> {
    const running = app!;
    app = undefined;
    // The test app drops its database and data folder on close: here they are the test's own, kept.
    await running.app.close();
  }

  /** SQL as the operator's psql: on the running service's database, or on the stopped service's, which stays on its server. */
  async function sql<T>(work: (db: Database) => Promise<T>): Promise<T> {
    if (app) return work(app.app.get(DATABASE));
    const db = new PgDatabase(testDb.url, { driver });
    return work(db).finally(() => db.close());
  }

  const get = (path: string) => call(app!, 'GET', path, { key: TEST_ADMIN_KEY });
  const signer = () => app!.app.get(ChainCheckpointer);
  const sell = async (count: number, cents = 1004) => {
    // Each write's whole answer, its promise with it: what a POS back office keeps.
    const answers = [];
    for (let i = 0; i < count; i++) {
      const answer = await call(app!, 'POST', '/transaction', {
        key: merchant.key,
        body: saleBody(merchant.id, { subtotal_cents: cents }),
      });
      expect(answer.status).toBe(201);
      answers.push(answer.body);
    }
    await signer().idle();
    return answers;
  };
  const head = async () =>
    sql(async (db) =>
      Number((await db.query<{ position: string }>('select position from event_store_head'))[0].position),
    );
  const signedSize = async () =>
    JSON.parse((await readFile(witnessFile(), 'utf8')).trim().split('\n').at(-1)!).tree_size as number;
  const checkpointCount = async () =>
    sql(async (db) =>
      Number(
        (await db.query<{ n: string }>("select count(*) as n from events where event_type = 'ChainCheckpointed'"))[0].n,
      ),
    );
  async function expectRefused(alarm: Record<string, unknown>): Promise<void> {
    // The signer's first round after a start runs after the start: its verdict, then the health.
    await signer().idle();
    const health = await call(app!, 'GET', '/health');
    expect(health.status).toBe(503);
    expect(health.body.chain.signer).toMatchObject({ state: 'refused', alarm });
  }
  async function onboard(): Promise<void> {
    const { merchant_id: merchantId } = await onboardMerchant(app!);
    merchant = { key: (await issueKey(app!, { role: 'merchant', merchant_id: merchantId })).key, id: merchantId };
  }

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'crcs-boundary-'));
    key = newSigningKey();
    await writeFile(file('signing-key.pem'), key.export({ format: 'pem', type: 'pkcs8' }) as string);
    // The test's own database on the driver's server of this run (the e2e global set-up's embedded
    // server, or DATABASE_URL's), kept across the test's restarts of the service and dropped after it.
    testDb = await createTestDatabase(driver);
  });

  afterEach(async () => {
    if (app) await stop();
    await testDb.drop();
    await rm(dir, { recursive: true, force: true });
  });

  it('(1) `update events set writer_mac = null` and a forged sale at the tail: the endpoint, the signer and verify-chain with the key each find every entry from the boundary unauthenticated', async () => {
    await start();
    await onboard();
    await sell(6);
    const signed = await signedSize();
    const boundary = await sql(async (db) =>
      Number(
        (
          await db.query<{ position: string }>(
            "select position from events where event_type = 'WriterAuthenticationRequired'",
          )
        )[0].position,
      ),
    );
    expect(boundary).toBe(1);

    await sql((db) => db.query('update events set writer_mac = null'));
    // The list follows the log: as of its head, so that the newest sale is in it.
    const [{ position: head }] = await sql((db) =>
      db.query<{ position: string }>('select position from event_store_head'),
    );
    const last = (await call(app!, 'GET', `/transactions?limit=1&min_position=${head}`, { key: merchant.key })).body
      .transactions[0];
    // A careful forger copies the last sale's entry data, its reference to the rule entry it was
    // priced under included, so that nothing but the missing authenticator gives it away.
    const { data: lastSale } = await sql((db) => entryAt(db, last.chain_position));
    expect(lastSale.rule_entry).toEqual({
      position: expect.any(Number),
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const forged = await sql((db) => appendForgedEntry(db, { ...lastSale, transaction_id: 'TXN-2026-11-29-FORGED01' }));

    // The service's own verification: every entry from the boundary on, the forged one among them.
    const verified = await get('/admin/verify-hash-chain');
    expect(verified.status).toBe(200);
    expect(verified.body.break_count).toBe(forged.position);
    expect(verified.body.breaks[0]).toMatchObject({
      kind: 'unauthenticated',
      position: 1,
      detail: unauthenticated(1, 1),
    });
    expect(verified.body.breaks.at(-1)).toMatchObject({
      kind: 'unauthenticated',
      position: forged.position,
      detail: unauthenticated(forged.position, 1),
    });
    // A range after the boundary is held to it too.
    const range = await get(`/admin/verify-hash-chain?from_position=${forged.position}`);
    expect(range.body.breaks).toEqual([
      expect.objectContaining({
        kind: 'unauthenticated',
        position: forged.position,
        detail: unauthenticated(forged.position, 1),
      }),
    ]);

    // The signer, at its next head: the first entry past what it signed has lost its authenticator.
    await sell(INTERVAL);
    await expectRefused({ kind: 'unauthenticated', position: signed + 1, detail: unauthenticated(signed + 1, 1) });
    expect(await signedSize()).toBe(signed);

    // The offline verifier, with the signing key.
    const exported = await get('/admin/audit-logs/export');
    await writeFile(file('audit.ndjson'), exported.body as string);
    await writeFile(file('key.pem'), await checkpointPublicKey(app!));
    const offline = await runVerifier([
      file('audit.ndjson'),
      '--public-key',
      file('key.pem'),
      '--signing-key',
      file('signing-key.pem'),
    ]);
    expect(offline.status).toBe(1);
    expect(JSON.parse(offline.stdout).breaks[0]).toMatchObject({
      kind: 'unauthenticated',
      position: 1,
      detail: unauthenticated(1, 1),
    });
  });

  it('(1) a log made before the boundary gets one at its next start with a key, and is held to it from there', async () => {
    await start({}, false);
    await onboard();
    await sell(3);
    const before = await head();
    await stop();
    // As a version before the boundary left it: a witness file whose last head is the log's tree.
    const root = await sql(async (db) => (await loadFrontier(db, before)).root().toString('hex'));
    const empty = signTreeHead(key, {
      tree_size: 0,
      root_hash: EMPTY_ROOT.toString('hex'),
      timestamp: new Date().toISOString(),
    });
    const now = signTreeHead(key, { tree_size: before, root_hash: root, timestamp: new Date().toISOString() });
    await writeFile(witnessFile(), `${JSON.stringify(empty)}\n${JSON.stringify(now)}\n`);

    await start();
    const boundary = before + 1;
    const [entry] = await sql((db) =>
      db.query<{ position: string; writer_mac: string | null }>(
        "select position, writer_mac from events where event_type = 'WriterAuthenticationRequired'",
      ),
    );
    expect({ position: Number(entry.position), authenticated: entry.writer_mac !== null }).toEqual({
      position: boundary,
      authenticated: true,
    });
    await sell(2);
    expect((await get('/admin/verify-hash-chain')).body.break_count).toBe(0);

    await sql((db) => db.query('update events set writer_mac = null'));
    const end = await head();
    const verified = await get('/admin/verify-hash-chain');
    // The entries before the boundary were written without authenticators: only those from it on are breaks.
    expect(verified.body.break_count).toBe(end - before);
    expect(verified.body.breaks[0]).toMatchObject({
      kind: 'unauthenticated',
      position: boundary,
      detail: unauthenticated(boundary, boundary),
    });
  });

  it('(2) a live rewrite of acknowledged, not yet signed sales, made with the key: only the signer, which remembers what it appended, catches it', async () => {
    // A longer interval: the two sales stay unsigned, whatever the entries before them.
    const interval = 20;
    await start({ CHECKPOINT_INTERVAL: String(interval) });
    // The signer signs the head it finds when it gets to the start's entries: on a busy machine that
    // was once after the sales below. Signed first, they are what is due, and the sales come after.
    await signer().signDue();
    await onboard();
    const [sale] = await sell(2);
    const signed = await signedSize();
    const at = sale.transaction.chain_position as number;
    expect(at).toBeGreaterThan(signed);
    const original = await sql(
      async (db) => (await db.query<{ hash: string }>('select hash from events where position = $1', [at]))[0].hash,
    );
    // The subtotal 1004 -> 9004, every later hash, authenticator and tree node recomputed with the key.
    await sql(async (db) => {
      await rewriteTail(db, at, ['subtotal_cents'], 9004, { signingKey: key });
      await rebuildTree(db);
    });
    const rewritten = await sql(
      async (db) => (await db.query<{ hash: string }>('select hash from events where position = $1', [at]))[0].hash,
    );
    // Nothing in the database is wrong any more: the verification passes it.
    expect((await get('/admin/verify-hash-chain')).body.breaks).toEqual([]);

    await sell(interval);
    await expectRefused({
      kind: 'modified',
      position: at,
      detail: `the entry at position ${at} is not the one this process appended (chain hash ${original}, now ${rewritten}): it was rewritten before it was signed`,
    });
    expect(await signedSize()).toBe(signed);
  });

  it('(3) sales acknowledged then deleted while the service is stopped: the head signed at shutdown catches the cut at the next start; with that head gone too, only the promises do', async () => {
    await start();
    await onboard();
    await sell(6);
    const kept = await sell(2);
    const last = kept[1].transaction.chain_position as number;
    await stop();
    // The shutdown signed what it had not: the last sale is under a signed head.
    expect(await signedSize()).toBe(last);

    const cut = async () =>
      sql(async (db) => {
        await db.query('delete from events where position >= $1', [kept[0].transaction.chain_position]);
        await rebuildTree(db);
      });
    await cut();
    await start();
    const ends = (kept[0].transaction.chain_position as number) - 1;
    // Found by the signer's first round or by its re-verification at start, whichever reads the log first.
    await expectRefused({
      kind: 'deleted',
      detail: expect.stringMatching(
        new RegExp(
          `^(the log ends at entry ${ends}, but a tree head of size ${last} was signed: entries were cut from its end|the entry at position ${ends + 1} is missing)$`,
        ),
      ),
    });
    await stop();

    // The operator also trims the witness file to before the cut (as a kill -9 before the head was signed would leave it):
    // the service, the signer and verify-chain find a log that is whole. The kept answers do not.
    const heads = (await readFile(witnessFile(), 'utf8'))
      .split('\n')
      .filter((line) => line && JSON.parse(line).tree_size <= ends);
    await writeFile(witnessFile(), `${heads.join('\n')}\n`);
    await sql((db) =>
      db.query("delete from events where event_type = 'ChainCheckpointed' and (data->>'tree_size')::bigint > $1", [
        ends,
      ]),
    );
    await sql(rebuildTree);
    await start();
    await sell(INTERVAL * 2, 2000);
    expect((await call(app!, 'GET', '/health')).status).toBe(200);
    expect((await get('/admin/verify-hash-chain')).body.break_count).toBe(0);
    await writeFile(file('kept.ndjson'), kept.map((answer) => JSON.stringify(answer)).join('\n'));
    await writeFile(file('vkey'), (await get('/log/vkey')).body as string);
    const promises = await runVerifier(
      ['promises', file('kept.ndjson'), '--log', `${app!.baseUrl}/log`, '--vkey', file('vkey')],
      { CRCS_API_KEY: TEST_ADMIN_KEY },
    );
    const lines = [];
    for (const { promise } of kept) {
      const held = await sql(
        async (db) =>
          (await db.query<{ hash: string }>('select hash from events where position = $1', [promise.position]))[0].hash,
      );
      lines.push(
        `  position ${promise.position} (${promise.entry_hash}): the log's entry at position ${promise.position} has hash ${held}: the promised entry was deleted or changed`,
      );
    }
    expect({ status: promises.status, stderr: promises.stderr }).toEqual({
      status: 1,
      stderr: `BROKEN: 2 of 2 promises are not kept by the log\n${lines.join('\n')}\n`,
    });
  });

  it('(5) a witness file corrupted while the service runs: the signer stops before its next head, and /health says so', async () => {
    await start();
    await onboard();
    await sell(6);
    const checkpoints = await checkpointCount();
    await appendFile(witnessFile(), 'not a tree head\n');
    await sell(INTERVAL);
    await expectRefused({
      kind: 'witness',
      detail: `the witness file ${witnessFile()} is corrupt: witness line 1 is not JSON`,
    });
    expect(await checkpointCount()).toBe(checkpoints);
  });

  it('(5) after a witness refuses, the signer stops until an operator acts, across restarts; /log/checkpoint serves only what meets the quorum; a silent witness is an alarm', async () => {
    const origin = `crcs.example/boundary-${driver}`;
    const witness = await WitnessProcess.start(file('witness'), [verifierKey(origin, key)]);
    try {
      await writeFile(
        file('policy'),
        `log ${verifierKey(origin, key)}\nwitness W1 ${witness.vkey} ${witness.url}\nquorum W1\n`,
      );
      const withPolicy = { LOG_ORIGIN: origin, LOG_POLICY_FILE: file('policy') };
      await start(withPolicy);
      await onboard();
      await sell(INTERVAL * 2);
      await app!.app.get(Cosignatures).idle();
      const cosigned = await signedSize();
      expect((await get('/log/checkpoint')).body).toContain('\u2014 witness.example/w1 ');
      await stop();

      // The operator forks the log: back to an earlier state, the witness file trimmed to match, then more sales.
      const back = INTERVAL + 1;
      await sql(async (db) => {
        await db.query('delete from events where position > $1', [back]);
        await db.query('delete from checkpoint_cosignatures');
        await rebuildTree(db);
      });
      const heads = (await readFile(witnessFile(), 'utf8'))
        .split('\n')
        .filter((line) => line && JSON.parse(line).tree_size <= back);
      await writeFile(witnessFile(), `${heads.join('\n')}\n`);
      await start(withPolicy);
      await sell(INTERVAL * 3, 3000);
      await app!.app.get(Cosignatures).idle();
      const refusalFile = `${witnessFile()}.refused`;
      const health = await call(app!, 'GET', '/health');
      expect(health.status).toBe(503);
      expect(health.body.chain.signer.state).toBe('refused');
      expect(health.body.chain.signer.alarm.kind).toBe('refused');
      expect(health.body.chain.signer.alarm.detail).toMatch(
        new RegExp(
          `^witness W1 \\(${witness.url.replace(/[.]/g, '\\.')}\\) refused to cosign the checkpoint of tree size \\d+: .*\\. ` +
            `The signer has stopped and signs nothing more: the log does not extend what the witness cosigned\\. ` +
            `Compare the log with the witness's checkpoint \\(npm run verify-chain\\), restore the true history, then delete ${refusalFile.replace(/[.]/g, '\\.')} and restart the service$`,
        ),
      );
      const refusedAt = await checkpointCount();
      await sell(INTERVAL * 2, 3000);
      expect(await checkpointCount()).toBe(refusedAt);
      // Nothing the witness cosigned is on this fork: /log/checkpoint has no checkpoint to serve.
      const served = await get('/log/checkpoint');
      expect(served.status).toBe(404);
      expect(served.body.message).toMatch(
        /^No checkpoint is cosigned by the quorum of LOG_POLICY_FILE's witnesses yet \(the newest signed checkpoint, of tree size \d+, is at GET \/admin\/audit\/witnessing\)$/,
      );
      expect(cosigned).toBeGreaterThan(back);

      // A restart does not clear it: the refusal is kept until the operator deletes its file.
      await stop();
      await start(withPolicy);
      await expectRefused({ kind: 'refused' });
      expect((await call(app!, 'GET', '/health')).body.chain.signer.alarm.detail).toContain(
        `(kept in ${refusalFile}: delete it once the log is what the witness cosigned)`,
      );
      await stop();
      await unlink(refusalFile);
    } finally {
      await witness.stop();
    }

    // The witness is gone: with WITNESS_ALARM_AFTER_S=1 its silence is an alarm.
    await start({
      LOG_ORIGIN: origin,
      LOG_POLICY_FILE: file('policy'),
      WITNESS_ALARM_AFTER_S: '1',
      WITNESS_RETRY_S: '1',
    });
    await sell(INTERVAL);
    for (const deadline = Date.now() + 20_000; ; await sleep(100)) {
      const { body } = await call(app!, 'GET', '/health');
      const silent = body.chain.alarms.find((a: { kind: string }) => a.kind === 'silent');
      if (silent) {
        expect(silent).toMatchObject({
          source: 'witness',
          detail: expect.stringMatching(
            /^witness W1 \(http:\/\/127\.0\.0\.1:\d+\) has cosigned nothing for \d+ s \(WITNESS_ALARM_AFTER_S is 1\), since it was asked to cosign the checkpoint of tree size \d+: /,
          ),
        });
        break;
      }
      if (Date.now() > deadline) throw new Error(`no silent-witness alarm: ${JSON.stringify(body.chain.alarms)}`);
    }
  });
});
