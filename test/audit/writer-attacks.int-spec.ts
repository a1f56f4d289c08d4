import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import canonicalize from 'canonicalize';
import { DATABASE, type Database } from '../../src/platform/event-store/sql';
import { signTreeHead } from '@crcs/tlog';
import { checkpointPublicKey, checkpointsWritten, runVerifier } from '../support/audit';
import { call, issueKey, onboardMerchant } from '../support/auth';
import { newSigningKey } from '../../packages/tlog/test/chain';
import { recordSale } from '../support/sales';
import { appendForgedEntry, cutEntry, entryAt } from '../support/tampering';
import { startTestApp, TEST_ADMIN_KEY, type TestApp } from '../support/test-app';

const alarmsIn = async (db: Database) =>
  (
    await db.query<{ data: { source: string; kind: string; position: number; detail: string } }>(
      "select data from events where event_type = 'ChainAlarmRaised' order by position",
    )
  ).map((row) => row.data);

/**
 * docs/design.md "Tamper evidence against whoever runs the database", the writes' side: a dishonest
 * operator with SQL and no key, against what the service answers for its writes. Each attack is
 * made on the real database; each test names what detects it and how it says so.
 */
describe('attacks by whoever runs the database, on what the service wrote', () => {
  let app: TestApp;
  let db: Database;
  let dir: string;
  let merchant: { key: string; id: string };
  let signingKey: KeyObject;
  const file = (name: string) => join(dir, name);
  const get = (path: string, key = TEST_ADMIN_KEY) => call(app, 'GET', path, { key });

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'crcs-attacks-'));
    signingKey = newSigningKey();
    const pem = signingKey.export({ format: 'pem', type: 'pkcs8' }) as string;
    await writeFile(file('signing-key.pem'), pem);
    app = await startTestApp({ env: { CHECKPOINT_SIGNING_KEY: pem, CHECKPOINT_INTERVAL: '4' } });
    db = app.app.get(DATABASE);
    const { merchant_id: merchantId } = await onboardMerchant(app);
    merchant = { key: (await issueKey(app, { role: 'merchant', merchant_id: merchantId })).key, id: merchantId };
    await writeFile(file('key.pem'), await checkpointPublicKey(app));
  });

  afterEach(async () => {
    await app?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const post = async (path: string, body: Record<string, unknown>) => {
    const answer = await call(app, 'POST', path, { key: merchant.key, body });
    expect(answer.status).toBe(201);
    return answer.body;
  };

  /** A head over the log as it stands, signed with the log's key: what a signer fooled by the attack would sign. */
  async function signedHeadNow() {
    const size = (await call(app, 'GET', '/health')).body.chain.head_position as number;
    const { root_hash: rootHash } = (await get(`/admin/audit/inclusion-proof?position=1&tree_size=${size}`)).body;
    return signTreeHead(signingKey, { tree_size: size, root_hash: rootHash, timestamp: new Date().toISOString() });
  }

  it('every write answer carries a signed promise of its entry, the receipt the same one, and verify-chain holds it against a later head', async () => {
    const publicKey = createPublicKey(signingKey);
    const answered = await post('/transaction', {
      merchant_id: merchant.id,
      subtotal_cents: 1000,
      tax_total_cents: 3,
      payment_method: 'cash',
    });
    const sale = answered.transaction;
    const other = (
      await post('/transaction', {
        merchant_id: merchant.id,
        subtotal_cents: 2000,
        tax_total_cents: 0,
        payment_method: 'cash',
      })
    ).transaction;
    const writes = [
      answered,
      await post('/transaction/override', {
        transaction_id: sale.id,
        employee_id: 'e-9',
        employee_name: 'Zoë',
        reason: 'manager-discretion',
        new_cash_total_cents: 1000,
      }),
      await post('/tip/credit-card', {
        transaction_id: other.id,
        employee_id: 'e-1',
        employee_name: 'Ana',
        tip_amount: 5,
      }),
    ];
    writes.push(
      await post('/tip/adjust', { tip_id: writes[2].tip.id, new_amount: 6, reason: 'Guest corrected the slip' }),
    );
    writes.push(
      await post('/transaction/refund', {
        original_transaction_id: other.id,
        refund_amount: 500,
        void_reason: 'defective_product',
        voided_by: 'e-3',
      }),
    );
    const third = (
      await post('/transaction', {
        merchant_id: merchant.id,
        subtotal_cents: 3000,
        tax_total_cents: 0,
        payment_method: 'card',
      })
    ).transaction;
    writes.push(
      await post('/transaction/void', {
        original_transaction_id: third.id,
        void_reason: 'pricing_error',
        voided_by: 'manager-1',
      }),
    );
    const entries = await db.query<{ position: string; hash: string; recorded_at: Date }>(
      'select position, hash, recorded_at from events order by position',
    );
    for (const { promise } of writes) {
      const entry = entries.find((e) => Number(e.position) === promise.position)!;
      expect(promise).toMatchObject({
        entry_hash: entry.hash,
        timestamp: entry.recorded_at.toISOString(),
        // The log's one origin: the one its checkpoints and verifier key name.
        origin: (await db.query<{ origin: string }>('select origin from log_origin'))[0].origin,
      });
      // Checked with an independent RFC 8785 implementation and the public key alone.
      const statement = canonicalize({
        entry_hash: promise.entry_hash,
        origin: promise.origin,
        position: promise.position,
        statement: 'crcs entry promise v1',
        timestamp: promise.timestamp,
      })!;
      expect(verify(null, Buffer.from(statement), publicKey, Buffer.from(promise.signature, 'base64'))).toBe(true);
    }
    expect(answered.promise).toMatchObject({ position: sale.chain_position, entry_hash: sale.auditHash });

    await checkpointsWritten(app);
    const receipt = await get(`/transaction/${sale.id}/receipt?format=audit`, merchant.key);
    expect(receipt.body.promise).toEqual(answered.promise);
    await writeFile(file('answer.json'), JSON.stringify(answered));
    await writeFile(file('receipt.json'), JSON.stringify(receipt.body));
    expect((await runVerifier(['inclusion', file('receipt.json'), '--public-key', file('key.pem')])).status).toBe(0);
    const held = await runVerifier([
      'promise',
      file('answer.json'),
      '--proof',
      file('receipt.json'),
      '--public-key',
      file('key.pem'),
    ]);
    expect({ status: held.status, stderr: held.stderr }).toEqual({
      status: 0,
      stderr: 'OK: the promise proof holds\n',
    });
    // A promise whose signature was not made by the key fails, even for the entry that is there.
    await writeFile(
      file('forged-answer.json'),
      JSON.stringify({ ...answered, promise: { ...answered.promise, timestamp: '2026-01-01T00:00:00.000Z' } }),
    );
    const forged = await runVerifier([
      'promise',
      file('forged-answer.json'),
      '--proof',
      file('receipt.json'),
      '--public-key',
      file('key.pem'),
    ]);
    expect({ status: forged.status, stderr: forged.stderr }).toEqual({
      status: 1,
      stderr: 'FAILED: the promise has an invalid signature\n',
    });
  });

  it('the receipt of a sale deleted by SQL, another entry moved into its place: the service answers 404 with the alarm, never a proof, and verify-chain fails its promise and its proof', async () => {
    const answered = await post('/transaction', {
      merchant_id: merchant.id,
      subtotal_cents: 4200,
      tax_total_cents: 3,
      payment_method: 'cash',
    });
    const sale = answered.transaction;
    await writeFile(file('answer.json'), JSON.stringify(answered));
    for (let i = 0; i < 5; i++) await recordSale(app, merchant.key, merchant.id, { subtotal_cents: 1000 + i });
    await checkpointsWritten(app);
    const kept = await get(`/transaction/${sale.id}/receipt?format=audit`, merchant.key);
    expect(kept.status).toBe(200);

    await cutEntry(db, sale.chain_position);

    // Issue 48: a read whose read-model row has lost its entry answers the log's truth. The log no
    // longer holds the sale, so the receipt is not found (no record, no proof of whatever entry now
    // sits at its position), and the row left behind raises the chain alarm.
    const after = await get(`/transaction/${sale.id}/receipt?format=audit`, merchant.key);
    expect({ status: after.status, body: after.body }).toEqual({
      status: 404,
      body: { error: 'NOT_FOUND', message: `Transaction ${sale.id} not found` },
    });
    // Raised: on /health (the log itself takes no entry after a cut: appends are refused while its head is below what was appended).
    const health = await call(app, 'GET', '/health');
    expect(health.status).toBe(503);
    expect(health.body.chain.alarms).toContainEqual({
      source: 'read-model',
      kind: 'row-without-entry',
      position: sale.chain_position,
      detail:
        `rm_transactions holds ${sale.id} at position ${sale.chain_position} with hash ${sale.auditHash}, ` +
        'but the log holds no such entry recording it: the transaction is answered as not found',
    });

    // What the service answered before: the record, with the proof of whatever entry now sits at its position, against the log as it stands.
    const size = (await get('/admin/audit/tree-head')).body.tree_size as number;
    const proof = (await get(`/admin/audit/inclusion-proof?position=${sale.chain_position}&tree_size=${size}`)).body;
    const { body: head } = await get('/admin/audit/tree-head');
    await writeFile(file('receipt.json'), JSON.stringify({ ...kept.body, tree_head: head, inclusion_proof: proof }));
    const checked = await runVerifier(['inclusion', file('receipt.json')]);
    expect(checked.status).toBe(1);
    expect(checked.stderr).toContain(
      `FAILED: the proof is of the entry at position ${sale.chain_position} with hash ${proof.entry_hash}, but the receipt's record is the entry at position ${sale.chain_position} with audit hash ${sale.auditHash}`,
    );

    // The promise the sale was answered with, against a later head signed with the log's key over the log as it now stands.
    const later = await signedHeadNow();
    await writeFile(file('later-head.json'), JSON.stringify(later));
    const laterProof = (
      await get(`/admin/audit/inclusion-proof?position=${sale.chain_position}&tree_size=${later.tree_size}`)
    ).body;
    await writeFile(file('later-proof.json'), JSON.stringify(laterProof));
    const promised = await runVerifier([
      'promise',
      file('answer.json'),
      '--proof',
      file('later-proof.json'),
      '--head',
      file('later-head.json'),
      '--public-key',
      file('key.pem'),
    ]);
    expect({ status: promised.status, stderr: promised.stderr }).toEqual({
      status: 1,
      stderr:
        `FAILED: the promise is of the entry at position ${sale.chain_position} with hash ${sale.auditHash}, but the log's entry at position ${sale.chain_position} ` +
        `has hash ${laterProof.entry_hash}: the promised entry was deleted or changed\n`,
    });
  });

  it('a well-formed entry inserted by SQL at the tail: the verifier, the signer and verify-chain with the key find it unauthenticated', async () => {
    const sales = [];
    for (let i = 0; i < 4; i++)
      sales.push(await recordSale(app, merchant.key, merchant.id, { subtotal_cents: 1000 + i }));
    await checkpointsWritten(app);
    // The last sale's own answer: the list is built after the append and may not have it yet.
    const last = sales[3];
    // A careful forger copies the last sale's entry data, its reference to the rule entry it was
    // priced under included, so that nothing but the missing authenticator gives it away.
    const { data: lastSale } = await entryAt(db, last.chain_position);
    expect(lastSale.rule_entry).toEqual({
      position: expect.any(Number),
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const forged = await appendForgedEntry(db, { ...lastSale, transaction_id: 'TXN-2026-11-26-FORGED01' });
    // The authentication boundary is the log's first entry.
    const unauthenticated = `the entry at position ${forged.position} carries no writer authenticator, but every entry from position 1 must: no service process wrote it`;

    // The service's own verification.
    const verified = await get('/admin/verify-hash-chain');
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({
      break_count: 1,
      breaks: [
        { kind: 'unauthenticated', position: forged.position, entry_id: forged.entryId, detail: unauthenticated },
      ],
    });
    expect(await alarmsIn(db)).toContainEqual(
      expect.objectContaining({ source: 'verification', kind: 'unauthenticated', position: forged.position }),
    );

    // The signer, before it signs the next head: it refuses, and /health says so.
    for (let i = 0; i < 4; i++) await recordSale(app, merchant.key, merchant.id, { subtotal_cents: 2000 + i });
    await checkpointsWritten(app);
    const health = await call(app, 'GET', '/health');
    expect(health.status).toBe(503);
    expect(health.body.chain.signer).toMatchObject({
      state: 'refused',
      alarm: { kind: 'unauthenticated', position: forged.position, detail: unauthenticated },
    });
    const signed = await db.query<{ n: string }>(
      "select count(*) as n from events where event_type = 'ChainCheckpointed' and (data->>'tree_size')::bigint >= $1",
      [forged.position],
    );
    expect(Number(signed[0].n)).toBe(0);

    // The offline verifier, given the signing key; without it, the forged entry passes.
    const { body: exported } = await get('/admin/audit-logs/export');
    await writeFile(file('audit.ndjson'), exported as string);
    const withKey = await runVerifier([
      file('audit.ndjson'),
      '--public-key',
      file('key.pem'),
      '--signing-key',
      file('signing-key.pem'),
    ]);
    expect(withKey.status).toBe(1);
    expect(JSON.parse(withKey.stdout).breaks).toEqual([
      expect.objectContaining({ kind: 'unauthenticated', position: forged.position, detail: unauthenticated }),
    ]);
    const withoutKey = await runVerifier([file('audit.ndjson'), '--public-key', file('key.pem')]);
    expect({ status: withoutKey.status, note: withoutKey.stderr }).toEqual({
      status: 0,
      note: expect.stringContaining('NOTE: no --signing-key given'),
    });
  });
});
