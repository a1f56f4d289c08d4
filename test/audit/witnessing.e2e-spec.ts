import type { KeyObject } from 'node:crypto';
import { EventStore } from '../../src/platform/event-store/event-store.port';
import { copyFile, mkdir, mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { Cosignatures } from '../../src/audit/cosignatures';
import { PgDatabase } from '../../src/platform/event-store/pg-database';
import {
  MerkleFrontier,
  CHECKPOINT_EVENT_TYPE,
  type CheckpointData,
  cosignatures,
  cosignerKey,
  parseCosignerKey,
  checkpointText,
  openNote,
  parseCheckpoint,
  parseVerifierKey,
  signNote,
  verifierKey,
  addCheckpointBody,
} from '@crcs/tlog';
import { checkpointsWritten, runVerifier } from '../support/audit';
import { call, issueKey, onboardMerchant } from '../support/auth';
import { newSigningKey } from '../../packages/tlog/test/chain';
import { recordSale } from '../support/sales';
import { rebuildTree, rewriteTail } from '../support/tampering';
import { ServiceProcess } from '../support/service-process';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { startTestApp, TEST_ADMIN_KEY, type TestApp } from '../support/test-app';
import { appendEntries } from '../support/transparency-log';
import { WitnessProcess, WitnessStartError } from '../support/witness-process';

/*
 * Witnessing (docs/design.md "Transparency in the standard formats"): the service asks an independent
 * witness, `npm run witness` as its own process on its own port and state folder, to cosign each
 * checkpoint; the operator's attacks on their own log (a restored backup, a cut tail, history
 * rewritten and re-signed with the log's own key) are refused by that witness, raise the chain
 * alarm, and leave a checkpoint that `verify-chain checkpoint --policy` refuses for want of its
 * quorum. The operator does what one would with full control of their own machine: SQL on the
 * service's database, its files (the signing key, and the operator witness file, the signer's state,
 * made to match), the service stopped and started again. Only the witness is out of their reach.
 * One witness process witnesses every log of the suite; each log has a database of its own
 * (DATABASE_URL's server, else the embedded one), since each attack leaves its log forked from
 * what the witness cosigned for good.
 */

const WITNESS = 'witness.example/w1';

/** A log of the suite: its origin and key, its database, its operator witness file and its policy (the one witness, quorum W1). */
class Log {
  readonly key: KeyObject = newSigningKey();
  readonly vkey: string;
  db!: TestDatabase;
  app?: TestApp;
  private env!: Record<string, string>;

  constructor(
    readonly origin: string,
    private readonly folder: string,
  ) {
    this.vkey = verifierKey(origin, this.key);
  }

  get policyFile(): string {
    return join(this.folder, 'policy');
  }

  /** The signer's state, CHECKPOINT_WITNESS_FILE: the operator's own file. */
  get operatorWitnessFile(): string {
    return join(this.folder, 'operator-witness.ndjson');
  }

  async open(witness: WitnessProcess): Promise<void> {
    await mkdir(this.folder);
    await writeFile(this.policyFile, `log ${this.vkey}\nwitness W1 ${witness.vkey} ${witness.url}\nquorum W1\n`);
    this.db = await createTestDatabase();
    this.env = {
      DATABASE_URL: this.db.url,
      CHECKPOINT_SIGNING_KEY: this.key.export({ format: 'pem', type: 'pkcs8' }) as string,
      CHECKPOINT_WITNESS_FILE: this.operatorWitnessFile,
      CHECKPOINT_INTERVAL: '50',
      // Checkpoints by count only: which sizes get signed, and so each refusal's words, must not depend on the machine's speed.
      CHECKPOINT_MAX_AGE_S: '3600',
      LOG_ORIGIN: this.origin,
      LOG_POLICY_FILE: this.policyFile,
    };
  }

  async start(): Promise<TestApp> {
    this.app = await startTestApp({ env: this.env });
    return this.app;
  }

  async stop(): Promise<void> {
    await this.app?.close();
    this.app = undefined;
  }

  /** Every checkpoint due is signed, and every witness asked about the latest. */
  async settle(): Promise<void> {
    await checkpointsWritten(this.app!);
    await this.app!.app.get(Cosignatures).idle();
  }

  /** The newest signed checkpoint, with what cosignatures it has: /log/checkpoint serves only one that meets the quorum. */
  async checkpoint(): Promise<string> {
    return (await call(this.app!, 'GET', '/admin/audit/witnessing', { key: TEST_ADMIN_KEY })).body.checkpoint
      .note as string;
  }

  sizeOf(note: string): number {
    return parseCheckpoint(openNote(note, [parseVerifierKey(this.vkey)]).text).size;
  }

  async verifyWithPolicy(note: string) {
    const file = join(this.folder, `checkpoint-${Date.now()}`);
    await writeFile(file, note);
    return runVerifier(['checkpoint', file, '--policy', this.policyFile]);
  }

  /** SQL on the log's database, as the operator with psql. */
  async sql<T>(work: (db: PgDatabase) => Promise<T>): Promise<T> {
    const db = new PgDatabase(this.db.url);
    return work(db).finally(() => db.close());
  }
}

const NOT_MET = "FAILED: the checkpoint is cosigned by none of its witnesses: the policy's quorum (W1) is not met\n";

describe('independent witnesses (c2sp.org/tlog-witness) against the operator’s own attacks', () => {
  let work: string;
  let witness: WitnessProcess;
  /** Sales cosigned, then a backup restored, then a cut tail. */
  let history: Log;
  /** Rewritten in full and re-signed. */
  let rewritten: Log;
  /** Cosigned until the witness's own state is edited. */
  let watched: Log;
  const logs = () => [history, rewritten, watched];
  const serverUrl = () => (process.env.DATABASE_URL ?? process.env.CRCS_EMBEDDED_URL)!;
  const statePath = () => join(work, 'witness', 'state.json');

  const admin = async (sql: string) => {
    const client = new Client({ connectionString: serverUrl() });
    await client.connect();
    await client.query(sql).finally(() => client.end());
  };
  const dbName = () => new URL(history.db.url).pathname.slice(1);
  const witnessed = async (log: Log) =>
    JSON.parse(await readFile(statePath(), 'utf8')).logs[log.origin] as { size: number; root: string };
  const refusal = (size: number, answer: string) => ({
    source: 'witness',
    kind: 'refused',
    position: size,
    detail: `witness W1 (${witness.url}) refused to cosign the checkpoint of tree size ${size}: ${answer}`,
  });
  const inconsistent = (log: Log, from: number, to: number) =>
    `422 the consistency proof from tree size ${from} to ${to} does not verify against the root this witness cosigned at ${from}: ` +
    `the checkpoint of ${log.origin} does not extend what this witness cosigned before (history rewritten, rolled back or forked)`;
  /** The history log's cold backup: the service stopped, the database copied, the operator witness file beside it. */
  const backup = async () => {
    await admin(`create database ${dbName()}_backup template ${dbName()}`);
    await copyFile(history.operatorWitnessFile, join(work, 'operator-witness.backup'));
  };
  const restore = async () => {
    await admin(`drop database ${dbName()} with (force)`);
    await admin(`create database ${dbName()} template ${dbName()}_backup`);
    await copyFile(join(work, 'operator-witness.backup'), history.operatorWitnessFile);
  };

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'crcs-witnessing-'));
    history = new Log('crcs.example/witnessed', join(work, 'history'));
    rewritten = new Log('crcs.example/rewritten', join(work, 'rewritten'));
    watched = new Log('crcs.example/watched', join(work, 'watched'));
    witness = await WitnessProcess.start(
      join(work, 'witness'),
      logs().map((log) => log.vkey),
      WITNESS,
    );
    for (const log of logs()) await log.open(witness);
  }, 60_000);

  // A log's service runs only within a test: one left running would keep asking the witness for the rest of the suite.
  afterEach(async () => {
    for (const log of logs()) await log?.stop();
  });

  afterAll(async () => {
    await witness?.stop();
    for (const log of logs()) await log?.db?.drop();
    if (history?.db) await admin(`drop database if exists ${dbName()}_backup with (force)`);
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('serves every checkpoint with the witness’s cosignature, which verifies with its key and meets the policy’s quorum', async () => {
    const app = await history.start();
    await appendEntries(app, 120);
    await history.settle();
    const note = await history.checkpoint();
    const { size, root } = parseCheckpoint(openNote(note, [parseVerifierKey(history.vkey)]).text);
    expect(note.split('\n').filter((line) => line.startsWith(`\u2014 ${WITNESS} `))).toHaveLength(1);
    const cosigned = cosignatures(note, [parseCosignerKey(witness.vkey)]);
    expect([...cosigned.values()][0]).toBeGreaterThan(Date.now() / 1000 - 120);
    expect(await witnessed(history)).toEqual({ size, root: root.toString('base64') });

    const verified = await history.verifyWithPolicy(note);
    expect(verified.stderr).toBe(
      `OK: the checkpoint of ${history.origin} at tree size ${size} carries the log's valid signature, and cosignatures meeting the policy's quorum (W1)\n`,
    );
    expect(JSON.parse(verified.stdout)).toMatchObject({
      holds: true,
      tree_size: size,
      cosigned_by: [{ witness: 'W1' }],
      quorum: 'W1',
    });

    // A policy asking for a second witness as well is not met by this one alone.
    const strict = join(work, 'strict-policy');
    await writeFile(
      strict,
      `log ${history.vkey}\nwitness W1 ${witness.vkey}\nwitness W2 ${cosignerKey('witness.example/w2', newSigningKey())}\ngroup both all W1 W2\nquorum both\n`,
    );
    const file = join(work, 'served');
    await writeFile(file, note);
    const unmet = await runVerifier(['checkpoint', file, '--policy', strict]);
    expect({ status: unmet.status, stderr: unmet.stderr }).toEqual({
      status: 1,
      stderr: "FAILED: the checkpoint is cosigned by only W1: the policy's quorum (both) is not met\n",
    });
  });

  it('refuses a restore of an earlier backup after more sales: the witness will not cosign the other history, the service raises the alarm, the verifier finds no quorum', async () => {
    await history.stop();
    await backup();
    await appendEntries(await history.start(), 200);
    await history.settle();
    const cosignedBefore = await witnessed(history);
    await history.stop();

    await restore();
    const app = await history.start();
    await appendEntries(app, 300);
    await history.settle();
    // The signer stopped at the first checkpoint the witness refused (those it signed while the witness answered stay uncosigned).
    const note = await history.checkpoint();
    const health = await call(app, 'GET', '/health');
    expect(health.status).toBe(503);
    expect(health.body.chain.signer).toMatchObject({ state: 'refused', alarm: { kind: 'refused' } });
    const size = health.body.chain.signer.alarm.position as number;
    expect(size).toBeLessThanOrEqual(history.sizeOf(note));
    // Where the refused checkpoint falls depends on when the signer got to work: past, at or below the cosigned size.
    const answer =
      size > cosignedBefore.size
        ? inconsistent(history, cosignedBefore.size, size)
        : size === cosignedBefore.size
          ? `409 this witness cosigned another root at tree size ${size} of ${history.origin}: the log forked or was rewritten`
          : `400 the old size ${cosignedBefore.size} is beyond the checkpoint's tree size ${size}`;
    expect(health.body.chain.alarms).toContainEqual(refusal(size, answer));
    expect(await witnessed(history)).toEqual(cosignedBefore);
    expect(note).not.toContain(`\u2014 ${WITNESS} `);
    const verified = await history.verifyWithPolicy(note);
    expect({ status: verified.status, stderr: verified.stderr }).toEqual({ status: 1, stderr: NOT_MET });
  });

  it('refuses a log cut back below what it cosigned, even signed anew by the log’s key', async () => {
    const cosignedBefore = await witnessed(history);
    await history.stop();
    // The operator controls the data folder: the signer's refusal of the restore is deleted too. The witness still refuses.
    await unlink(`${history.operatorWitnessFile}.refused`);
    // The operator cuts the log to 50 entries past its first checkpoint (the chain and tree made whole again, the signer's
    // cosignatures and operator witness file trimmed to match). The cut is counted from that checkpoint, not from the log's
    // start: the rule entries imported at the first start come before it, and a cut among them would leave no checkpoint to
    // trim the signer's state to, so the signer would still remember cosignatures of entries the operator deleted.
    const kept = await history.sql(async (sql) => {
      const [{ position: first }] = await sql.query<{ position: string }>(
        "select min(position) as position from events where event_type = 'ChainCheckpointed'",
      );
      await sql.query('delete from events where position > $1', [Number(first) + 50]);
      await rebuildTree(sql);
      const [{ size }] = await sql.query<{ size: string }>(
        "select max((data->>'tree_size')::bigint) as size from events where event_type = 'ChainCheckpointed'",
      );
      await sql.query('delete from checkpoint_cosignatures where tree_size > $1', [size]);
      return Number(size);
    });
    const heads = (await readFile(history.operatorWitnessFile, 'utf8'))
      .split('\n')
      .filter((line) => line && JSON.parse(line).tree_size <= kept);
    await writeFile(history.operatorWitnessFile, `${heads.join('\n')}\n`);
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(cosignedBefore.size);
    const app = await history.start();
    await appendEntries(app, 60);
    await history.settle();
    const note = await history.checkpoint();
    const size = history.sizeOf(note);
    expect(size).toBeLessThan(cosignedBefore.size);
    const health = await call(app, 'GET', '/health');
    expect(health.status).toBe(503);
    // The signer, trimmed to the cut, asks from its own last cosigned size; the witness answers 409 with the size it
    // cosigned, and refuses the checkpoint once the signer resends from it. The signer, told so, stops and says why.
    // On a busy machine it may have signed the next checkpoint by count while its first request was out: the witness
    // then refuses that one too, and the signer's alarm names the first refusal it heard of.
    const alarms = health.body.chain.alarms as ReturnType<typeof refusal>[];
    const refusals = alarms.filter((alarm) => alarm.source === 'witness');
    expect(refusals.length).toBeGreaterThan(0);
    for (const alarm of refusals) {
      expect(alarm.position).toBeLessThanOrEqual(size);
      expect(alarm).toEqual(
        refusal(
          alarm.position,
          `400 the old size ${cosignedBefore.size} is beyond the checkpoint's tree size ${alarm.position}`,
        ),
      );
    }
    const [stopped, ...more] = alarms.filter((alarm) => alarm.source === 'signer');
    expect(more).toEqual([]);
    const first = refusals.find((alarm) => alarm.position === stopped.position)!;
    expect(stopped).toEqual({
      ...first,
      source: 'signer',
      detail:
        `${first.detail}. The signer has stopped and signs nothing more: the log does not extend what the witness cosigned. ` +
        `Compare the log with the witness's checkpoint (npm run verify-chain), restore the true history, then delete ` +
        `${history.operatorWitnessFile}.refused and restart the service`,
    });
    expect(health.body.chain.signer).toMatchObject({
      state: 'refused',
      alarm: { kind: 'refused', position: stopped.position },
    });
    expect(await witnessed(history)).toEqual(cosignedBefore);
    const verified = await history.verifyWithPolicy(note);
    expect({ status: verified.status, stderr: verified.stderr }).toEqual({ status: 1, stderr: NOT_MET });
  });

  it('refuses history rewritten consistently (every later hash, writer authenticator and node recomputed, the checkpoints re-signed with the log’s own key) that the log’s own checks pass', async () => {
    let app = await rewritten.start();
    const { merchant_id: merchantId } = await onboardMerchant(app);
    const sale = await recordSale(
      app,
      (await issueKey(app, { role: 'merchant', merchant_id: merchantId })).key,
      merchantId,
    );
    await appendEntries(app, 120);
    await rewritten.settle();
    const cosigned = await witnessed(rewritten);
    expect(rewritten.sizeOf(await rewritten.checkpoint())).toBe(cosigned.size);
    // The shutdown signs a checkpoint the witness never saw only over an entry past the cosigned checkpoint's
    // own: when the count left none, one more (the next checkpoint by count is then 49 entries away).
    const store = app.app.get(EventStore);
    if ((await store.head()).position === cosigned.size + 1) await appendEntries(app, 1);
    expect((await store.head()).position).toBeGreaterThan(cosigned.size + 1);
    await rewritten.stop();

    // The operator, the service stopped: the sale's cash total changed, every later hash, writer authenticator (its key derives
    // from the signing key, in the operator's data folder) and checkpoint redone and re-signed, the tree rebuilt, and the
    // operator witness file written anew from the re-signed checkpoints. The witness's cosignatures, of the old roots, are left.
    const resigned = await rewritten.sql(async (sql) => {
      await rewriteTail(sql, sale.chain_position, ['calculation', 'cash_total_cents'], 1, {
        signingKey: rewritten.key,
      });
      await rebuildTree(sql);
      return sql.query<{ data: CheckpointData }>('select data from events where event_type = $1 order by position', [
        CHECKPOINT_EVENT_TYPE,
      ]);
    });
    const [emptyTree] = (await readFile(rewritten.operatorWitnessFile, 'utf8')).split('\n');
    const heads = resigned.map(({ data: { checkpoint, position, hash, ...head } }) => JSON.stringify(head));
    await writeFile(rewritten.operatorWitnessFile, `${[emptyTree, ...heads].join('\n')}\n`);

    app = await rewritten.start();
    await rewritten.settle();
    // Nothing the log holds betrays it: the full verification finds no break.
    const verification = await call(app, 'GET', '/admin/verify-hash-chain', { key: TEST_ADMIN_KEY });
    expect(verification).toMatchObject({
      status: 200,
      body: { break_count: 0, checkpoints: { signatures_checked: true } },
    });
    // The witness does, at once: the re-signed checkpoint (the one signed at shutdown) does not extend what it cosigned.
    const before = await rewritten.checkpoint();
    const size = rewritten.sizeOf(before);
    expect(size).toBeGreaterThan(cosigned.size);
    // The signer stopped on the witness's word alone: its own checks found nothing.
    const health = await call(app, 'GET', '/health');
    expect(health).toMatchObject({
      status: 503,
      body: { chain: { signer: { state: 'refused', alarm: { kind: 'refused', position: size } } } },
    });
    expect(health.body.chain.alarms).toContainEqual(refusal(size, inconsistent(rewritten, cosigned.size, size)));

    // And the signer, told so, signs nothing more over the rewritten log: no fork is ever signed.
    await appendEntries(app, 60);
    await rewritten.settle();
    const note = await rewritten.checkpoint();
    expect(note).toBe(before);
    expect(await witnessed(rewritten)).toEqual(cosigned);
    expect(note).not.toContain(`\u2014 ${WITNESS} `);
    const verified = await rewritten.verifyWithPolicy(note);
    expect({ status: verified.status, stderr: verified.stderr }).toEqual({ status: 1, stderr: NOT_MET });
  });

  it('refuses loudly, never starting afresh, once its state file was edited: the service’s next checkpoint goes uncosigned', async () => {
    const app = await watched.start();
    await appendEntries(app, 120);
    await watched.settle();
    expect((await witnessed(watched)).size).toBeGreaterThan(0);
    // The witness's memory of this log erased, so that it would cosign any history of it: what a rollback would need.
    const state = JSON.parse(await readFile(statePath(), 'utf8'));
    delete state.logs[watched.origin];
    await writeFile(statePath(), JSON.stringify(state));
    const refused = `the witness state ${statePath()} does not carry the witness's own signature: it was edited outside the witness. Restore it from a backup; the witness will not start afresh`;

    const before = witness.output.length;
    await appendEntries(app, 60);
    await watched.settle();
    // The witness answered the service's request with its refusal (500), and logged it.
    expect(new Set(witness.output.slice(before).split('\n').filter(Boolean))).toEqual(new Set([`ERROR: ${refused}`]));
    const note = await watched.checkpoint();
    expect(note).not.toContain(`\u2014 ${WITNESS} `);
    const verified = await watched.verifyWithPolicy(note);
    expect({ status: verified.status, stderr: verified.stderr }).toEqual({ status: 1, stderr: NOT_MET });
    // A witness that cannot answer is no evidence against the log (docs/adr/0019-independent-witnesses.md): it is asked again later, no alarm.
    const health = await call(app, 'GET', '/health');
    expect({ status: health.status, alarms: health.body.chain.alarms }).toEqual({ status: 200, alarms: [] });

    // Anyone else's request is refused alike.
    const empty = signNote(
      checkpointText({ origin: watched.origin, size: 0, root: MerkleFrontier.empty().root() }),
      watched.origin,
      watched.key,
    );
    const response = await fetch(`${witness.url}/add-checkpoint`, {
      method: 'POST',
      body: addCheckpointBody(0, [], empty),
    });
    expect({ status: response.status, body: await response.text() }).toEqual({ status: 500, body: `${refused}\n` });
    // And at a restart.
    await witness.stop();
    const restarted = await WitnessProcess.start(
      join(work, 'witness'),
      logs().map((log) => log.vkey),
      WITNESS,
    ).catch((error: unknown) => error);
    expect(restarted).toBeInstanceOf(WitnessStartError);
    expect(restarted).toMatchObject({ code: 2, stderr: `REFUSED TO START: ${refused}\n` });
  });
});

/*
 * What the operator sees of witnessing in the service's own output, with the service as its own
 * process (`npm start` from source) so its log lines are read as an operator reads them.
 */
describe('witnessing as the operator sees it: a witness that is down, and a policy for another log', () => {
  const ORIGIN_HERE = 'crcs.example/witnessed-outage';
  const key = newSigningKey();
  const logVkey = verifierKey(ORIGIN_HERE, key);
  let work: string;
  let db: TestDatabase | undefined;
  let service: ServiceProcess | undefined;
  let witness: WitnessProcess | undefined;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'crcs-witness-outage-'));
  });

  afterEach(async () => {
    await service?.stop();
    await witness?.stop();
    await db?.drop();
    service = witness = db = undefined;
  });

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  /** The service on a database and data folder of its own, with the policy given; asks a witness that did not answer again after 1 s. */
  const startService = async (policy: string) => {
    db = await createTestDatabase();
    const folder = await mkdtemp(join(work, 'service-'));
    await writeFile(join(folder, 'policy'), policy);
    service = await ServiceProcess.start({
      env: {
        DATABASE_URL: db.url,
        DATA_DIR: folder,
        ADMIN_API_KEY: TEST_ADMIN_KEY,
        CHECKPOINT_SIGNING_KEY: key.export({ format: 'pem', type: 'pkcs8' }) as string,
        CHECKPOINT_MAX_AGE_S: '1',
        LOG_ORIGIN: ORIGIN_HERE,
        LOG_POLICY_FILE: join(folder, 'policy'),
        WITNESS_RETRY_S: '1',
        LOG_LEVEL: 'warn',
      },
      // A start through ts-node on a busy machine, as the other suites that start the service give it.
      startupLimitMs: 120_000,
    });
    return service;
  };
  /** The service's log lines of the witnessing, as JSON: whole lines only (the last may still be arriving). */
  const cosignatureLines = (): Array<{ level: number; context: string; msg: string }> =>
    service!.output
      .split('\n')
      .slice(0, -1)
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line))
      .filter((line) => line.context === 'Cosignatures');
  const get = async (path: string) => {
    const response = await fetch(`${service!.baseUrl}${path}`, { headers: { 'x-api-key': TEST_ADMIN_KEY } });
    return { status: response.status, text: await response.text() };
  };
  /** Waits on a condition, never a fixed time: what it waited for is in the failure. */
  const until = async <T>(
    what: string,
    read: () => Promise<T>,
    done: (value: T) => boolean,
    limitMs = 60_000,
  ): Promise<T> => {
    for (const deadline = Date.now() + limitMs; ; await sleep(100)) {
      const value = await read();
      if (done(value)) return value;
      if (Date.now() > deadline)
        throw new Error(
          `timed out waiting for ${what}; last ${JSON.stringify(value)}\n${service?.output.slice(-2000)}`,
        );
    }
  };

  it('is no alarm: /health stays ok, the warning is logged, and the retry gets the cosignature once the witness is back', async () => {
    // The witness made its key and state, then stopped: the policy names it where nothing listens now.
    witness = await WitnessProcess.start(join(work, 'witness'), [logVkey], WITNESS);
    const { url, vkey } = witness;
    await witness.stop();
    witness = undefined;
    await startService(`log ${logVkey}\nwitness W1 ${vkey} ${url}\nquorum W1\n`);
    // One entry, signed under a checkpoint within CHECKPOINT_MAX_AGE_S.
    const created = await fetch(`${service!.baseUrl}/admin/merchants`, {
      method: 'POST',
      headers: { 'x-api-key': TEST_ADMIN_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ merchant_id: 'outage-deli', name: 'Outage Deli', environment: 'sandbox' }),
    });
    expect(created.status).toBe(201);

    const warning = `witness W1 (${url}) did not answer (fetch failed); asking again in 1 s`;
    await until(
      'the warning',
      async () => cosignatureLines(),
      (lines) => lines.some((line) => line.msg === warning),
    );
    expect(cosignatureLines()).toContainEqual(expect.objectContaining({ level: 40, msg: warning }));
    const health = await get('/health');
    expect(health.status).toBe(200);
    expect(JSON.parse(health.text)).toMatchObject({ status: 'ok', chain: { alarms: [] } });
    const unwitnessed = JSON.parse((await get('/admin/audit/witnessing')).text).checkpoint.note as string;
    expect(unwitnessed).not.toContain(`\u2014 ${WITNESS} `);
    // Not served where clients that check the quorum read it, until the witness has cosigned it.
    const unserved = await get('/log/checkpoint');
    expect({ status: unserved.status, error: JSON.parse(unserved.text).error }).toEqual({
      status: 404,
      error: 'NOT_FOUND',
    });

    witness = await WitnessProcess.start(join(work, 'witness'), [logVkey], WITNESS, new URL(url).host);
    const cosigned = await until(
      'the cosignature',
      async () => (await get('/log/checkpoint')).text,
      (note) => note.includes(`\u2014 ${WITNESS} `),
    );
    // The same checkpoint, asked again by the retry: the log did not grow meanwhile.
    expect(cosigned.startsWith(unwitnessed)).toBe(true);
    expect(cosignatures(cosigned, [parseCosignerKey(vkey)]).size).toBe(1);
    expect(JSON.parse((await get('/health')).text)).toMatchObject({ status: 'ok', chain: { alarms: [] } });
    expect(cosignatureLines().filter((line) => line.level >= 50)).toEqual([]);
  }, 300_000);

  it('logs at start, and only logs, when LOG_POLICY_FILE names no log with this log’s key', async () => {
    const other = verifierKey('crcs.example/another-log', newSigningKey());
    await startService(`log ${other}\nquorum none\n`);
    expect(cosignatureLines()).toContainEqual(
      expect.objectContaining({
        level: 50,
        msg: `LOG_POLICY_FILE names no log with this log's key ${logVkey}: a verifier using that policy refuses its checkpoints`,
      }),
    );
    // Not fatal: the witnesses still cosign, only an auditor holding that policy would refuse.
    expect((await get('/health')).status).toBe(200);
  }, 300_000);
});
