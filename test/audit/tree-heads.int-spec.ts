import { createHash, createPublicKey, verify } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import canonicalize from 'canonicalize';
import { ChainCheckpointer } from '../../src/audit/chain-checkpointer';
import { Witness } from '../../src/audit/witness';
import { Clock } from '../../src/platform/clock';
import { parseWitness, type SignedTreeHead } from '@crcs/tlog';
import { EventStore } from '../../src/platform/event-store/event-store.port';
import { DATABASE, type Database } from '../../src/platform/event-store/sql';
import {
  checkpointPublicKey,
  checkpointsWritten,
  exportLog,
  parseExport,
  runVerifier,
  verifyExport,
} from '../support/audit';
import { call, issueKey, onboardMerchant } from '../support/auth';
import { newSigningKey } from '../../packages/tlog/test/chain';
import { rfc9162 } from '../../packages/tlog/test/rfc9162';
import { recordSale, saleBody } from '../support/sales';
import { entryAt, rewriteTail } from '../support/tampering';
import { DRIVERS } from '../support/test-database';
import { startTestApp, TEST_ADMIN_KEY, type TestApp } from '../support/test-app';
import { readModelsCaughtUp } from '../support/read-models';

const CASH_TOTAL = ['calculation', 'cash_total_cents'];
const INTERVAL = 5;
const hex = (h: string) => Buffer.from(h, 'hex');

/**
 * docs/design.md "Verifiable log": tree heads and proofs over real HTTP, checked by the RFC 9162
 * algorithms of packages/tlog/test/rfc9162.ts and an independent RFC 8785 library; and a signer that
 * will not sign a log it cannot verify, against SQL tampering and with a witness file outside the database.
 */
describe.each(DRIVERS)('signed tree heads and proofs, on %s', (driver) => {
  let app: TestApp;
  let db: Database;
  let witnessDir: string;
  let witnessFile: string;
  let merchant: { key: string; id: string };

  beforeEach(async () => {
    witnessDir = await mkdtemp(join(tmpdir(), 'crcs-witness-'));
    witnessFile = join(witnessDir, 'witness.ndjson');
    const signingKey = newSigningKey().export({ format: 'pem', type: 'pkcs8' }) as string;
    app = await startTestApp({
      driver,
      env: {
        CHECKPOINT_SIGNING_KEY: signingKey,
        CHECKPOINT_INTERVAL: String(INTERVAL),
        CHECKPOINT_WITNESS_FILE: witnessFile,
      },
    });
    db = app.app.get(DATABASE);
    const { merchant_id: merchantId } = await onboardMerchant(app);
    merchant = { key: (await issueKey(app, { role: 'merchant', merchant_id: merchantId })).key, id: merchantId };
    await sell(12);
  });

  afterEach(async () => {
    await app?.close();
    await rm(witnessDir, { recursive: true, force: true });
  });

  async function sell(count: number): Promise<void> {
    for (let i = 0; i < count; i++) await recordSale(app, merchant.key, merchant.id, { subtotal_cents: 1000 + i });
    await checkpointsWritten(app);
  }

  const get = async (path: string) => call(app, 'GET', path, { key: TEST_ADMIN_KEY });
  const witnessed = async (): Promise<SignedTreeHead[]> => parseWitness(await readFile(witnessFile, 'utf8'));
  const health = async () => call(app, 'GET', '/health');

  /**
   * The endpoint's verification, after checking that the offline verifier with the same witness agrees.
   * The export is taken first: a verification that finds a break appends its alarm to the log after it.
   */
  async function verifyBothWays() {
    const exported = await exportLog(app);
    const { status, body } = await get('/admin/verify-hash-chain');
    expect(status).toBe(200);
    const { from_position: fromPosition, to_position: toPosition, ...result } = body;
    // Given the signing key as the service holds it, so that writer authenticators are checked alike.
    expect(
      verifyExport(exported, [await checkpointPublicKey(app)], await witnessed(), app.config.checkpointSigningKey),
    ).toEqual(result);
    return result;
  }

  it('serves a signed tree head, inclusion proofs for every entry and consistency proofs from every size, all verified independently', async () => {
    const leaves = parseExport(await exportLog(app)).map((e) => hex(e.hash));
    const { status, body: head } = await get('/admin/audit/tree-head');
    expect(status).toBe(200);
    expect(head.tree_size).toBeGreaterThanOrEqual(10);
    expect(head.root_hash).toBe(rfc9162.mth(leaves.slice(0, head.tree_size)).toString('hex'));
    const statement = Buffer.from(
      canonicalize({ root_hash: head.root_hash, timestamp: head.timestamp, tree_size: head.tree_size })!,
    );
    const publicKey = createPublicKey(await checkpointPublicKey(app));
    expect(verify(null, statement, publicKey, Buffer.from(head.signature, 'base64'))).toBe(true);
    // The same head is in the log as a checkpoint and in the witness file, outside the database.
    expect((await witnessed()).at(-1)).toEqual(head);

    for (let position = 1; position <= head.tree_size; position++) {
      const { status: proofStatus, body: proof } = await get(
        `/admin/audit/inclusion-proof?position=${position}&tree_size=${head.tree_size}`,
      );
      expect(proofStatus).toBe(200);
      expect(proof).toMatchObject({
        position,
        leaf_index: position - 1,
        tree_size: head.tree_size,
        root_hash: head.root_hash,
      });
      expect(proof.leaf_hash).toBe(rfc9162.leafHash(leaves[position - 1]).toString('hex'));
      expect(
        rfc9162.verifyInclusion(
          position - 1,
          head.tree_size,
          hex(proof.leaf_hash),
          proof.audit_path.map(hex),
          hex(head.root_hash),
        ),
      ).toBe(true);
    }
    const size = leaves.length;
    for (let first = 1; first <= size; first++) {
      const { status: proofStatus, body: proof } = await get(
        `/admin/audit/consistency-proof?first=${first}&second=${size}`,
      );
      expect(proofStatus).toBe(200);
      expect(proof.first_root).toBe(rfc9162.mth(leaves.slice(0, first)).toString('hex'));
      expect(proof.second_root).toBe(rfc9162.mth(leaves).toString('hex'));
      expect(
        rfc9162.verifyConsistency(first, size, proof.proof.map(hex), hex(proof.first_root), hex(proof.second_root)),
      ).toBe(true);
    }
  });

  it('the offline verifier checks an export against the witness, an inclusion proof and a consistency proof against kept heads', async () => {
    const file = (name: string) => join(witnessDir, name);
    // A signer that lagged behind the first sales may have signed them in one head: these sales
    // make sure a later head exists, so that swapping the two heads below is a real error.
    await sell(INTERVAL);
    const heads = await witnessed();
    // The witness starts with the empty tree's head, written when it was created.
    expect(heads[0]).toMatchObject({ tree_size: 0, root_hash: createHash('sha256').digest('hex') });
    const [first, last] = [heads[1], heads.at(-1)!];
    expect(first.tree_size).toBeLessThan(last.tree_size);
    const inclusion = (await get(`/admin/audit/inclusion-proof?position=3&tree_size=${last.tree_size}`)).body;
    const consistency = (await get(`/admin/audit/consistency-proof?first=${first.tree_size}&second=${last.tree_size}`))
      .body;
    await writeFile(file('audit.ndjson'), await exportLog(app));
    await writeFile(file('key.pem'), await checkpointPublicKey(app));
    await writeFile(file('first.json'), JSON.stringify(first));
    await writeFile(file('last.json'), JSON.stringify(last));
    await writeFile(file('inclusion.json'), JSON.stringify(inclusion));
    await writeFile(file('forged-inclusion.json'), JSON.stringify({ ...inclusion, leaf_index: 4 }));
    await writeFile(file('consistency.json'), JSON.stringify(consistency));
    const key = ['--public-key', file('key.pem')];

    const whole = await runVerifier([file('audit.ndjson'), ...key, '--witness', witnessFile]);
    expect(whole.status).toBe(0);
    expect(JSON.parse(whole.stdout).tree).toMatchObject({ witnessed_heads: heads.length });
    expect((await runVerifier(['inclusion', file('inclusion.json'), '--head', file('last.json'), ...key])).status).toBe(
      0,
    );
    const forged = await runVerifier(['inclusion', file('forged-inclusion.json'), '--head', file('last.json'), ...key]);
    expect({ status: forged.status, stderr: forged.stderr }).toEqual({
      status: 1,
      stderr: expect.stringMatching(/^FAILED: the inclusion proof does not verify/),
    });
    expect(
      (
        await runVerifier([
          'consistency',
          file('consistency.json'),
          '--head',
          file('first.json'),
          '--head',
          file('last.json'),
          ...key,
        ])
      ).status,
    ).toBe(0);
    const swapped = await runVerifier([
      'consistency',
      file('consistency.json'),
      '--head',
      file('last.json'),
      '--head',
      file('first.json'),
      ...key,
    ]);
    expect(swapped.status).toBe(1);

    // An export cut short of the last witnessed head fails against the witness.
    const cut = (await exportLog(app))
      .split('\n')
      .slice(0, last.tree_size - 1)
      .join('\n');
    await writeFile(file('cut.ndjson'), `${cut}\n`);
    const truncated = await runVerifier([file('cut.ndjson'), ...key, '--witness', witnessFile]);
    expect(truncated.status).toBe(1);
    expect(JSON.parse(truncated.stdout).breaks).toContainEqual(
      expect.objectContaining({ kind: 'deleted', missing_positions: { from: last.tree_size, to: last.tree_size } }),
    );
  });

  it('puts the sale’s inclusion proof in its audit receipt: against the latest signed head, or the log as it stands when the sale is newer', async () => {
    const publicKey = createPublicKey(await checkpointPublicKey(app));
    const leaves = () => exportLog(app).then((text) => parseExport(text).map((e) => hex(e.hash)));
    // A sale after the latest signed head: a checkpoint may follow any sale, so sell until one is not covered.
    let covered: { id: string; chain_position: number; auditHash: string } | undefined;
    for (let tries = 0; !covered && tries < INTERVAL + 2; tries++) {
      const sale = await recordSale(app, merchant.key, merchant.id);
      await checkpointsWritten(app);
      if ((await get('/admin/audit/tree-head')).body.tree_size < sale.chain_position) covered = sale;
    }
    if (!covered) throw new Error('every sale was covered by a signed head at once');

    // Newer than the signed head: an unsigned head of the whole log, which the RFC algorithms accept.
    const fresh = await call(app, 'GET', `/transaction/${covered.id}/receipt?format=audit`, { key: merchant.key });
    expect(fresh.status).toBe(200);
    const all = await leaves();
    expect(fresh.body.tree_head).toMatchObject({
      tree_size: all.length,
      signature: null,
      key_id: null,
      root_hash: rfc9162.mth(all).toString('hex'),
    });
    expect(fresh.body.inclusion_proof).toMatchObject({
      position: covered.chain_position,
      entry_hash: covered.auditHash,
      tree_size: all.length,
    });
    const proves = (
      proof: { leaf_index: number; tree_size: number; audit_path: string[] },
      entryHash: string,
      root: string,
    ) =>
      rfc9162.verifyInclusion(
        proof.leaf_index,
        proof.tree_size,
        rfc9162.leafHash(hex(entryHash)),
        proof.audit_path.map(hex),
        hex(root),
      );
    expect(proves(fresh.body.inclusion_proof, covered.auditHash, fresh.body.tree_head.root_hash)).toBe(true);

    // A sale the signed head covers: the proof leads to that signed head, whose signature verifies.
    const signed = (await get('/admin/audit/tree-head')).body;
    await readModelsCaughtUp(app.app.get(DATABASE));
    const sale = (await call(app, 'GET', '/transactions?limit=1000', { key: merchant.key })).body.transactions.find(
      (t: { chain_position: number }) => t.chain_position <= signed.tree_size,
    );
    const kept = await call(app, 'GET', `/transaction/${sale.id}/receipt?format=audit`, { key: merchant.key });
    const head = kept.body.tree_head;
    expect(head).toEqual(signed);
    const statement = Buffer.from(
      canonicalize({ root_hash: head.root_hash, timestamp: head.timestamp, tree_size: head.tree_size })!,
    );
    expect(verify(null, statement, publicKey, Buffer.from(head.signature, 'base64'))).toBe(true);
    expect(proves(kept.body.inclusion_proof, kept.body.receipt.auditHash, head.root_hash)).toBe(true);

    // The merchant keeps the receipt alone and checks it offline, signature included; a changed entry hash fails.
    const file = join(witnessDir, 'receipt.json');
    const keyFile = join(witnessDir, 'key.pem');
    await writeFile(keyFile, await checkpointPublicKey(app));
    await writeFile(file, JSON.stringify(kept.body));
    expect((await runVerifier(['inclusion', file, '--public-key', keyFile])).status).toBe(0);
    await writeFile(
      file,
      JSON.stringify({
        ...kept.body,
        inclusion_proof: { ...kept.body.inclusion_proof, entry_hash: covered.auditHash },
      }),
    );
    expect((await runVerifier(['inclusion', file, '--public-key', keyFile])).status).toBe(1);
    // An unsigned receipt head is refused once a key is given: only a signed head is evidence.
    await writeFile(file, JSON.stringify(fresh.body));
    expect((await runVerifier(['inclusion', file, '--public-key', keyFile])).status).toBe(1);
  });

  it('refuses sizes beyond the log, a position beyond the tree and first above second, with our error body', async () => {
    const size = parseExport(await exportLog(app)).length;
    for (const path of [
      `/admin/audit/inclusion-proof?position=1&tree_size=${size + 1}`,
      `/admin/audit/inclusion-proof?position=${size}&tree_size=${size - 1}`,
      `/admin/audit/consistency-proof?first=3&second=2`,
      `/admin/audit/consistency-proof?first=1&second=${size + 1}`,
      '/admin/audit/inclusion-proof?position=0',
      '/admin/audit/consistency-proof?first=1e20&second=2',
    ]) {
      const { status, body } = await get(path);
      expect({ path, status, error: body.error }).toEqual({ path, status: 400, error: 'VALIDATION_ERROR' });
    }
    const merchantCall = await call(app, 'GET', '/admin/audit/tree-head', { key: merchant.key });
    expect(merchantCall.status).toBe(403);
  });

  it('will not sign over a tail rewritten with recomputed hashes while it runs: it names the entry and /health turns degraded', async () => {
    const unsignedSale = async () => {
      const signedSize = (await witnessed()).at(-1)!.tree_size;
      const [row] = await db.query<{ position: string }>(
        "select min(position) as position from events where event_type = 'TransactionRecorded' and position > $1",
        [signedSize],
      );
      return { signedSize, victim: row.position === null ? undefined : Number(row.position) };
    };
    let { signedSize, victim } = await unsignedSale();
    while (victim === undefined) {
      await sell(1);
      ({ signedSize, victim } = await unsignedSale());
    }
    await rewriteTail(db, victim, CASH_TOTAL, 1);
    const checkpointsBefore = parseExport(await exportLog(app)).filter((e) => e.type === 'ChainCheckpointed').length;
    await sell(INTERVAL);

    const { status, body } = await health();
    expect(status).toBe(503);
    // Every hash and link was recomputed, but no writer authenticator could be.
    expect(body).toMatchObject({
      status: 'degraded',
      chain: { signer: { state: 'refused', alarm: { kind: 'unauthenticated', position: victim } } },
    });
    expect(body.chain.alarms).toEqual([
      expect.objectContaining({ source: 'signer', detail: body.chain.signer.alarm.detail }),
    ]);
    expect(parseExport(await exportLog(app)).filter((e) => e.type === 'ChainCheckpointed')).toHaveLength(
      checkpointsBefore,
    );
    expect((await witnessed()).at(-1)!.tree_size).toBe(signedSize);
  });

  it('catches a rewrite that also deleted the checkpoint rows, by the witness: on restart the signer refuses, both verifiers name the head', async () => {
    const heads = await witnessed();
    const last = heads.at(-1)!;
    // The forger deletes every checkpoint after an early sale, closes the gaps and recomputes every hash after it.
    const target = (
      await db.query<{ position: string }>(
        "select min(position) as position from events where event_type = 'ChainCheckpointed'",
      )
    )[0];
    const from = Number(target.position) - 1;
    await db.query("delete from events where event_type = 'ChainCheckpointed' and position > $1", [from]);
    await db.query('update events set position = -position where position > $1', [from]);
    await db.query(
      `update events set position = ${from} + r from (select position as p, row_number() over (order by position desc) as r from events where position < 0) t where position = t.p`,
      [],
    );
    const [{ n }] = await db.query<{ n: string }>('select count(*) as n from events');
    await rewriteTail(db, from, CASH_TOTAL, 1);
    await db.query('update event_store_head set position = $1', [Number(n)]);
    expect(Number(n)).toBeGreaterThanOrEqual(last.tree_size - heads.length);

    // A second signer over the same database and witness: the service after a restart.
    const restarted = new ChainCheckpointer(
      app.app.get(EventStore),
      db,
      app.config,
      app.app.get(Clock),
      new Witness(app.config),
    );
    await restarted.onModuleInit();
    restarted.onApplicationBootstrap();
    await restarted.idle();
    void restarted.onApplicationShutdown();
    // Whichever comes first: the re-verification of the first signed span, or the check of the head to extend.
    expect(restarted.status()).toMatchObject({ state: 'refused' });
    expect(restarted.status().alarm!.detail).toMatch(
      /^entries 1 to \d+ no longer give the root of the tree head signed at .*: an entry among them was changed, inserted, deleted or moved$|^the stored Merkle tree of the first \d+ entries does not have the signed root [0-9a-f]{64}$|^the log ends at entry \d+, but a tree head of size \d+ was signed: entries were cut from its end$|^the entry at position \d+ carries a writer authenticator that does not verify: no service process wrote it as it is$|^the entry at position \d+ is not the one the signed tree head of size \d+ covers: an entry up to it was rewritten$/,
    );

    const result = await verifyBothWays();
    expect(result.breaks).toContainEqual(
      expect.objectContaining({
        kind: Number(n) < last.tree_size ? 'deleted' : 'modified',
        witnessed_tree_size: expect.any(Number),
      }),
    );
    // Without the witness (and with the checkpoints gone), the rewritten chain is whole.
    expect(verifyExport(await exportLog(app), [await checkpointPublicKey(app)]).break_count).toBe(0);
  });

  it('catches a truncated log: the signer refuses and both verifiers name the missing positions', async () => {
    const signed = (await witnessed()).at(-1)!.tree_size;
    const keep = signed - 2;
    const lastKept = await entryAt(db, keep);
    const [{ position: appendedUpTo }] = await db.query<{ position: string }>('select position from event_store_head');
    await db.query('delete from events where position > $1', [keep]);
    await db.query('update event_store_head set position = $1, hash = $2', [keep, lastKept.hash]);
    expect((await verifyBothWays()).breaks).toEqual([
      expect.objectContaining({
        kind: 'deleted',
        position: keep,
        witnessed_tree_size: signed,
        missing_positions: { from: keep + 1, to: signed },
      }),
    ]);

    // The service appends nothing onto the cut log: the head went back below what it appended.
    const refused = await call(app, 'POST', '/transaction', { key: merchant.key, body: saleBody(merchant.id, {}) });
    const detail = `this process appended up to entry ${appendedUpTo}, but the log now ends at ${keep}: acknowledged entries were cut from its end and the head moved back`;
    expect(refused).toMatchObject({
      status: 503,
      body: {
        error: 'CHAIN_ALARM',
        message: `The audit log was changed behind the service's back, so nothing is recorded until an operator has looked: ${detail}`,
      },
    });
    const { status, body } = await health();
    expect(status).toBe(503);
    expect(body.chain.alarms).toContainEqual({ source: 'event-store', kind: 'deleted', position: keep + 1, detail });
  });
});
