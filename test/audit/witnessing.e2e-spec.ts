import type { KeyObject } from 'node:crypto';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { Cosignatures } from '../../src/audit/cosignatures';
import { PgDatabase } from '../../src/platform/event-store/pg-database';
import { MerkleFrontier, consistencyPath, leafHash } from '../../src/platform/event-store/merkle-tree';
import { cosignatures, cosignerKey, parseCosignerKey } from '../../src/platform/verification/cosignature';
import { checkpointText, openNote, parseCheckpoint, parseVerifierKey, signNote, verifierKey } from '../../src/platform/verification/signed-note';
import { addCheckpointBody } from '../../src/platform/verification/tlog-witness';
import { checkpointsWritten, runVerifier } from '../support/audit';
import { call } from '../support/auth';
import { newSigningKey } from '../support/chain';
import { rebuildTree } from '../support/tampering';
import { ServiceProcess } from '../support/service-process';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { startTestApp, TEST_ADMIN_KEY, type TestApp } from '../support/test-app';
import { appendEntries } from '../support/transparency-log';
import { WitnessProcess, WitnessStartError } from '../support/witness-process';

/*
 * Witnessing (DESIGN.md "Transparency in the standard formats"): the service asks an independent
 * witness, `npm run witness` as its own process on its own port and state folder, to cosign each
 * checkpoint; the operator's attacks on their own log (a restored backup, a cut tail, history
 * rewritten and re-signed with the log's own key) are refused by that witness, raise the chain
 * alarm, and leave a checkpoint that `verify-chain checkpoint --policy` refuses for want of its
 * quorum. The service runs on a database of this suite's own (DATABASE_URL's server, else the
 * embedded one), stopped and started again as the operator would, with its operator witness file
 * kept beside it.
 */

const ORIGIN = 'crcs.example/witnessed';
const WITNESS = 'witness.example/w1';

describe('independent witnesses (c2sp.org/tlog-witness) against the operator’s own attacks', () => {
  let work: string;
  let key: KeyObject;
  let logVkey: string;
  let witness: WitnessProcess;
  let db: TestDatabase;
  let app: TestApp | undefined;
  let env: Record<string, string>;
  let policyFile: string;
  const serverUrl = () => (process.env.DATABASE_URL ?? process.env.CRCS_EMBEDDED_URL)!;

  const admin = async (sql: string) => {
    const client = new Client({ connectionString: serverUrl() });
    await client.connect();
    await client.query(sql).finally(() => client.end());
  };
  const dbName = () => new URL(db.url).pathname.slice(1);
  const start = async () => {
    app = await startTestApp({ env });
  };
  const stop = async () => {
    await app?.close();
    app = undefined;
  };
  const settle = async () => {
    await checkpointsWritten(app!);
    await app!.app.get(Cosignatures).idle();
  };
  const checkpoint = async () => (await call(app!, 'GET', '/log/checkpoint', { key: TEST_ADMIN_KEY })).body as string;
  const witnessed = async () => JSON.parse(await readFile(join(work, 'witness', 'state.json'), 'utf8')).logs[ORIGIN] as { size: number; root: string };
  const verifyWithPolicy = async (note: string) => {
    const file = join(work, `checkpoint-${Date.now()}`);
    await writeFile(file, note);
    return runVerifier(['checkpoint', file, '--policy', policyFile]);
  };
  /** The operator's cold backup: the service stopped, the database copied, the operator witness file beside it. */
  const backup = async () => {
    await admin(`create database ${dbName()}_backup template ${dbName()}`);
    await copyFile(join(work, 'operator-witness.ndjson'), join(work, 'operator-witness.backup'));
  };
  const restore = async () => {
    await admin(`drop database ${dbName()} with (force)`);
    await admin(`create database ${dbName()} template ${dbName()}_backup`);
    await copyFile(join(work, 'operator-witness.backup'), join(work, 'operator-witness.ndjson'));
  };

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'crcs-witnessing-'));
    key = newSigningKey();
    logVkey = verifierKey(ORIGIN, key);
    witness = await WitnessProcess.start(join(work, 'witness'), [logVkey], WITNESS);
    policyFile = join(work, 'policy');
    await writeFile(policyFile, `log ${logVkey}\nwitness W1 ${witness.vkey} ${witness.url}\nquorum W1\n`);
    db = await createTestDatabase(process.env.DATABASE_URL ? 'postgres' : 'embedded');
    env = {
      DATABASE_URL: db.url,
      CHECKPOINT_SIGNING_KEY: key.export({ format: 'pem', type: 'pkcs8' }) as string,
      CHECKPOINT_WITNESS_FILE: join(work, 'operator-witness.ndjson'),
      CHECKPOINT_INTERVAL: '50',
      LOG_ORIGIN: ORIGIN,
      LOG_POLICY_FILE: policyFile,
    };
  }, 60_000);

  afterAll(async () => {
    await stop();
    await witness?.stop();
    await db?.drop();
    if (db) await admin(`drop database if exists ${dbName()}_backup with (force)`);
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('serves every checkpoint with the witness’s cosignature, which verifies with its key and meets the policy’s quorum', async () => {
    await start();
    await appendEntries(app!, 120);
    await settle();
    const note = await checkpoint();
    const { size, root } = parseCheckpoint(openNote(note, [parseVerifierKey(logVkey)]).text);
    expect(note.split('\n').filter((line) => line.startsWith(`\u2014 ${WITNESS} `))).toHaveLength(1);
    const cosigned = cosignatures(note, [parseCosignerKey(witness.vkey)]);
    expect([...cosigned.values()][0]).toBeGreaterThan(Date.now() / 1000 - 120);
    expect(await witnessed()).toEqual({ size, root: root.toString('base64') });

    const verified = await verifyWithPolicy(note);
    expect(verified.stderr).toBe(`OK: the checkpoint of ${ORIGIN} at tree size ${size} carries the log's valid signature, and cosignatures meeting the policy's quorum (W1)\n`);
    expect(JSON.parse(verified.stdout)).toMatchObject({ holds: true, tree_size: size, cosigned_by: [{ witness: 'W1' }], quorum: 'W1' });

    // A policy asking for a second witness as well is not met by this one alone.
    const strict = join(work, 'strict-policy');
    await writeFile(strict, `log ${logVkey}\nwitness W1 ${witness.vkey}\nwitness W2 ${cosignerKey('witness.example/w2', newSigningKey())}\ngroup both all W1 W2\nquorum both\n`);
    const file = join(work, 'served');
    await writeFile(file, note);
    const unmet = await runVerifier(['checkpoint', file, '--policy', strict]);
    expect({ status: unmet.status, stderr: unmet.stderr }).toEqual({ status: 1, stderr: "FAILED: the checkpoint is cosigned by only W1: the policy's quorum (both) is not met\n" });
  });

  it('refuses a restore of an earlier backup after more sales: the witness will not cosign the other history, the service raises the alarm, the verifier finds no quorum', async () => {
    await stop();
    await backup();
    await start();
    await appendEntries(app!, 200);
    await settle();
    const cosignedBefore = await witnessed();
    await stop();

    await restore();
    await start();
    await appendEntries(app!, 300);
    await settle();
    const note = await checkpoint();
    const { size } = parseCheckpoint(openNote(note, [parseVerifierKey(logVkey)]).text);
    expect(size).toBeGreaterThan(cosignedBefore.size);
    const health = await call(app!, 'GET', '/health');
    expect(health.status).toBe(503);
    expect(health.body.chain.alarms).toContainEqual({
      source: 'witness',
      kind: 'refused',
      position: size,
      detail:
        `witness W1 (${witness.url}) refused to cosign the checkpoint of tree size ${size}: 422 the consistency proof from tree size ${cosignedBefore.size} to ${size} ` +
        `does not verify against the root this witness cosigned at ${cosignedBefore.size}: the checkpoint of ${ORIGIN} does not extend what this witness cosigned before ` +
        '(history rewritten, rolled back or forked)',
    });
    expect(await witnessed()).toEqual(cosignedBefore);
    expect(note).not.toContain(`\u2014 ${WITNESS} `);
    const verified = await verifyWithPolicy(note);
    expect({ status: verified.status, stderr: verified.stderr }).toEqual({ status: 1, stderr: "FAILED: the checkpoint is cosigned by none of its witnesses: the policy's quorum (W1) is not met\n" });
  });

  it('refuses a log cut back below what it cosigned, even signed anew by the log’s key', async () => {
    const cosignedBefore = await witnessed();
    await stop();
    // The operator cuts the log to 100 entries (the chain and tree made whole again, the operator witness file trimmed to match).
    const sql = new PgDatabase(db.url);
    await sql.query('delete from events where position > 100');
    await rebuildTree(sql);
    const [{ size: kept }] = await sql.query<{ size: string }>("select max((data->>'tree_size')::bigint) as size from events where event_type = 'ChainCheckpointed'");
    await sql.query('delete from checkpoint_cosignatures where tree_size > $1', [kept]);
    await sql.close();
    const heads = (await readFile(join(work, 'operator-witness.ndjson'), 'utf8')).split('\n').filter((line) => line && JSON.parse(line).tree_size <= Number(kept));
    await writeFile(join(work, 'operator-witness.ndjson'), `${heads.join('\n')}\n`);
    await start();
    await appendEntries(app!, 60);
    await settle();
    const { size } = parseCheckpoint(openNote(await checkpoint(), [parseVerifierKey(logVkey)]).text);
    expect(size).toBeLessThan(cosignedBefore.size);
    const { body } = await call(app!, 'GET', '/health');
    expect(body.chain.alarms.map((alarm: { detail: string }) => alarm.detail)).toContain(
      `witness W1 (${witness.url}) refused to cosign the checkpoint of tree size ${size}: 400 the old size ${cosignedBefore.size} is beyond the checkpoint's tree size ${size}`,
    );
    expect(await witnessed()).toEqual(cosignedBefore);
  });

  it('refuses history rewritten consistently (every later hash and node recomputed) and re-signed with the log’s own key', async () => {
    const cosignedBefore = await witnessed();
    // What a forger holding the log's key and its database makes: the stored leaves, one early entry changed, a new tree over them.
    const sql = new PgDatabase(db.url);
    const hashes = (await sql.query<{ hash: string }>('select hash from events order by position')).map((row) => row.hash);
    await sql.close();
    hashes[4] = 'ab'.repeat(32);
    const size = Math.max(hashes.length, cosignedBefore.size + 1);
    while (hashes.length < size) hashes.push(hashes.length.toString(16).padStart(64, '0'));
    const nodes = new Map<string, Buffer>();
    const frontier = MerkleFrontier.empty();
    for (const hash of hashes) for (const n of frontier.append(leafHash(hash))) nodes.set(`${n.level}/${n.index}`, n.hash);
    const forged = signNote(checkpointText({ origin: ORIGIN, size, root: frontier.root() }), ORIGIN, key);
    const proof = consistencyPath(cosignedBefore.size, size, (level, index) => nodes.get(`${level}/${index}`)!);
    const response = await fetch(`${witness.url}/add-checkpoint`, { method: 'POST', body: addCheckpointBody(cosignedBefore.size, proof, forged) });
    expect({ status: response.status, body: await response.text() }).toEqual({
      status: 422,
      body:
        `the consistency proof from tree size ${cosignedBefore.size} to ${size} does not verify against the root this witness cosigned at ${cosignedBefore.size}: ` +
        `the checkpoint of ${ORIGIN} does not extend what this witness cosigned before (history rewritten, rolled back or forked)\n`,
    });
    const verified = await verifyWithPolicy(forged);
    expect({ status: verified.status, stderr: verified.stderr }).toEqual({ status: 1, stderr: "FAILED: the checkpoint is cosigned by none of its witnesses: the policy's quorum (W1) is not met\n" });
    expect(await witnessed()).toEqual(cosignedBefore);
  });

  it('refuses loudly, never starting afresh, once its state file was edited', async () => {
    await stop();
    const statePath = join(work, 'witness', 'state.json');
    const state = JSON.parse(await readFile(statePath, 'utf8'));
    state.logs[ORIGIN].size = 1;
    await writeFile(statePath, JSON.stringify(state));
    // While it runs: the next request finds it.
    const note = signNote(checkpointText({ origin: ORIGIN, size: 0, root: MerkleFrontier.empty().root() }), ORIGIN, key);
    const response = await fetch(`${witness.url}/add-checkpoint`, { method: 'POST', body: addCheckpointBody(0, [], note) });
    const refusal = `the witness state ${statePath} does not carry the witness's own signature: it was edited outside the witness. Restore it from a backup; the witness will not start afresh`;
    expect({ status: response.status, body: await response.text() }).toEqual({ status: 500, body: `${refusal}\n` });
    // And at a restart.
    await witness.stop();
    const restarted = await WitnessProcess.start(join(work, 'witness'), [logVkey], WITNESS).catch((error: unknown) => error);
    expect(restarted).toBeInstanceOf(WitnessStartError);
    expect(restarted).toMatchObject({ code: 2, stderr: `REFUSED TO START: ${refusal}\n` });
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
    db = await createTestDatabase(process.env.DATABASE_URL ? 'postgres' : 'embedded');
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
  const until = async <T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, limitMs = 60_000): Promise<T> => {
    for (const deadline = Date.now() + limitMs; ; await sleep(100)) {
      const value = await read();
      if (done(value)) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last ${JSON.stringify(value)}\n${service?.output.slice(-2000)}`);
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
    await until('the warning', async () => cosignatureLines(), (lines) => lines.some((line) => line.msg === warning));
    expect(cosignatureLines()).toContainEqual(expect.objectContaining({ level: 40, msg: warning }));
    const health = await get('/health');
    expect(health.status).toBe(200);
    expect(JSON.parse(health.text)).toMatchObject({ status: 'ok', chain: { alarms: [] } });
    const unwitnessed = (await get('/log/checkpoint')).text;
    expect(unwitnessed).not.toContain(`\u2014 ${WITNESS} `);

    witness = await WitnessProcess.start(join(work, 'witness'), [logVkey], WITNESS, new URL(url).host);
    const cosigned = await until('the cosignature', async () => (await get('/log/checkpoint')).text, (note) => note.includes(`\u2014 ${WITNESS} `));
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
