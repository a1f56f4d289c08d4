import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DATABASE, type Database } from '../../src/platform/event-store/sql';
import { Cosignatures } from '../../src/audit/cosignatures';
import { cosignatures, parseCosignerKey, openNote, parseCheckpoint, parseVerifierKey, verifierKey } from '@crcs/tlog';
import { call, issueKey, onboardMerchant, uniqueId } from '../support/auth';
import { recordSale } from '../support/sales';
import { checkpointsWritten, runVerifier } from '../support/audit';
import { newSigningKey } from '../../packages/tlog/test/chain';
import { buildGoChecker, goSuite, type GoChecker } from '../../packages/tlog/test/go-checker';
import { startTestApp, TEST_ADMIN_KEY, type TestApp } from '../support/test-app';
import { appendEntries } from '../support/transparency-log';
import { WitnessProcess } from '../support/witness-process';

/** The service's log as it serves it, checked by Go's own implementation of the formats (packages/tlog/test/go-checker.ts). */
goSuite("C2SP checkpoints and tiles, checked by Go's sumdb/note and sumdb/tlog", () => {
  let work: string;
  let run: GoChecker;
  let app: TestApp;
  let vkey: string;
  let witness: WitnessProcess;
  const older: string[] = [];
  let receipt: { tlog_proof: string | null; receipt: { auditHash: string; chain_position: number } };

  const checkLog = () => run(['log', `${app.baseUrl}/log`, TEST_ADMIN_KEY, vkey, ...older]);

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'crcs-go-'));
    run = buildGoChecker(work);

    // A witness of our own (npm run witness) cosigns every checkpoint, for Go to check its cosignatures too.
    const key = newSigningKey();
    witness = await WitnessProcess.start(join(work, 'witness'), [verifierKey('crcs.example/interop', key)]);
    await writeFile(join(work, 'policy'), `witness W1 ${witness.vkey} ${witness.url}\nquorum W1\n`);
    app = await startTestApp({
      env: {
        CHECKPOINT_SIGNING_KEY: key.export({ format: 'pem', type: 'pkcs8' }) as string,
        CHECKPOINT_INTERVAL: '100',
        // Checkpoints by count only: the checkpoint Go checks and the one read after it must be the same.
        CHECKPOINT_MAX_AGE_S: '3600',
        LOG_ORIGIN: 'crcs.example/interop',
        LOG_POLICY_FILE: join(work, 'policy'),
      },
    });
    vkey = (await call(app, 'GET', '/log/vkey', { key: TEST_ADMIN_KEY })).body.trim();
    // Checkpoints of several sizes, kept as an auditor keeps them, over two full level-0 tiles and into a third.
    for (const count of [110, 120, 200, 300]) {
      await appendEntries(app, count);
      // /log/checkpoint serves the newest checkpoint the witness has cosigned: wait for it to be asked.
      await checkpointsWritten(app);
      await app.app.get(Cosignatures).idle();
      const note = (await call(app, 'GET', '/log/checkpoint', { key: TEST_ADMIN_KEY })).body as string;
      const file = join(work, `checkpoint-${older.length}`);
      await writeFile(file, note);
      older.push(file);
    }
    // A sale, then enough entries for a checkpoint over it: its audit receipt then carries a tlog-proof.
    const merchantId = uniqueId('m-interop');
    await onboardMerchant(app, { merchant_id: merchantId, name: 'Interop Deli' });
    const { key: merchantKey } = await issueKey(app, { role: 'merchant', merchant_id: merchantId, name: 'lane 1' });
    const sale = await recordSale(app, merchantKey, merchantId);
    await appendEntries(app, 150);
    await app.app.get(Cosignatures).idle();
    receipt = (await call(app, 'GET', `/transaction/${sale.id}/receipt?format=audit`, { key: merchantKey })).body;
  }, 240_000);

  afterAll(async () => {
    await app?.close();
    await witness?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('verifies our checkpoint with note.NewVerifier(vkey) and note.Open, proves every entry from the tiles, and every older checkpoint consistent', async () => {
    const { status, stdout, stderr } = await checkLog();
    expect({ status, stderr }).toEqual({ status: 0, stderr: '' });
    const summary = JSON.parse(stdout);
    const latest = parseCheckpoint(
      openNote((await call(app, 'GET', '/log/checkpoint', { key: TEST_ADMIN_KEY })).body, [parseVerifierKey(vkey)])
        .text,
    );
    expect(summary).toMatchObject({
      size: latest.size,
      root: latest.root.toString('base64'),
      entries_checked: latest.size,
    });
    expect(latest.size).toBeGreaterThan(512);
    expect(summary.consistent_with).toHaveLength(4);
    expect(new Set(summary.consistent_with).size).toBe(4);
  }, 600_000); // Go reads every tile over HTTP, one to three times: minutes on a loaded machine.

  it('has Go refuse the tiles once a stored tree node or an entry’s chain hash is rewritten by SQL', async () => {
    const db = app.app.get<Database>(DATABASE);
    const [node] = await db.query<{ hash: string }>(
      "select encode(hash, 'hex') as hash from merkle_nodes where level = 0 and idx = 300",
    );
    await db.query("update merkle_nodes set hash = decode(repeat('ab', 32), 'hex') where level = 0 and idx = 300");
    const forgedNode = await checkLog();
    await db.query("update merkle_nodes set hash = decode($1, 'hex') where level = 0 and idx = 300", [node.hash]);
    expect(forgedNode.status).toBe(1);
    // Leaf 300 is in tile 0/001: the first entry Go proves from that tile no longer leads to the signed root.
    expect(forgedNode.stderr).toMatch(/^entry 2\d\d is not in the tree: invalid transparency proof|inconsistent tile/);

    const [entry] = await db.query<{ hash: string }>('select hash from events where position = 42');
    await db.query("update events set hash = repeat('cd', 32) where position = 42");
    const forgedEntry = await checkLog();
    await db.query('update events set hash = $1 where position = 42', [entry.hash]);
    expect(forgedEntry.status).toBe(1);
    expect(forgedEntry.stderr).toContain('entry 41 is not in the tree');
    expect((await checkLog()).status).toBe(0);
  }, 600_000); // Go reads every tile over HTTP, one to three times: minutes on a loaded machine.

  it('has Go check the tlog-proof of an audit receipt (note.Open, tlog.CheckRecord), and refuse it for another entry or with a path hash changed', async () => {
    const { tlog_proof: tlogProof, receipt: record } = receipt;
    expect(tlogProof).toMatch(new RegExp(`^c2sp\\.org/tlog-proof@v1\nindex ${record.chain_position - 1}\n`));
    const file = join(work, 'sale.tlog-proof');
    await writeFile(file, tlogProof!);
    const checked = await run(['proof', file, vkey, record.auditHash]);
    expect({ status: checked.status, stderr: checked.stderr }).toEqual({ status: 0, stderr: '' });
    expect(JSON.parse(checked.stdout)).toMatchObject({ index: record.chain_position - 1 });

    const another = await run(['proof', file, vkey, 'ab'.repeat(32)]);
    expect(another).toMatchObject({
      status: 1,
      stderr: `the entry is not at index ${record.chain_position - 1} of the checkpoint's tree: invalid transparency proof\n`,
    });
    const firstHash = tlogProof!.split('\n')[2];
    const flipped = Buffer.from(firstHash, 'base64');
    flipped[0] ^= 1;
    await writeFile(file, tlogProof!.replace(firstHash, flipped.toString('base64')));
    expect((await run(['proof', file, vkey, record.auditHash])).stderr).toContain('invalid transparency proof');
  });

  it('has our verify-chain accept the receipt and refuse it for a sale whose entry is another', async () => {
    const vkeyFile = join(work, 'log.vkey');
    const receiptFile = join(work, 'receipt.json');
    await writeFile(vkeyFile, vkey);
    await writeFile(receiptFile, JSON.stringify(receipt));
    const ok = await runVerifier(['tlog-proof', receiptFile, '--vkey', vkeyFile]);
    expect(ok.stderr).toBe(
      `OK: the entry ${receipt.receipt.auditHash} is at position ${receipt.receipt.chain_position} of crcs.example/interop, under its signed checkpoint of tree size ${JSON.parse(ok.stdout).tree_size}\n`,
    );
    expect(ok.status).toBe(0);
    // The proof's checkpoint carries the witness's cosignature: with the policy, its quorum is checked too.
    const policyFile = join(work, 'auditor-policy');
    await writeFile(policyFile, `log ${vkey}\nwitness W1 ${witness.vkey}\nquorum W1\n`);
    const quorum = await runVerifier(['tlog-proof', receiptFile, '--policy', policyFile]);
    expect(quorum.stderr).toMatch(/, cosigned to the policy's quorum \(W1\)\n$/);
    expect(quorum.status).toBe(0);
    await writeFile(
      receiptFile,
      JSON.stringify({ ...receipt, receipt: { ...receipt.receipt, auditHash: 'ab'.repeat(32) } }),
    );
    const forged = await runVerifier(['tlog-proof', receiptFile, '--vkey', vkeyFile]);
    expect(forged.status).toBe(1);
    expect(forged.stderr).toMatch(
      /^FAILED: the entry (ab){32} is not at index \d+ of the tree of size \d+ the checkpoint signs: the proof does not lead to its root\n$/,
    );
  });

  it('verifies our witness’s cosignature/v1 with note.Open, given a verifier of the 0x04 type written in Go from the spec, and refuses it altered', async () => {
    await app.app.get(Cosignatures).idle();
    const note = (await call(app, 'GET', '/log/checkpoint', { key: TEST_ADMIN_KEY })).body as string;
    const [ours] = cosignatures(note, [parseCosignerKey(witness.vkey)]).values();
    const { status, stdout, stderr } = await run(['cosigned', vkey, witness.vkey], note);
    expect({ status, stderr }).toEqual({ status: 0, stderr: '' });
    expect(JSON.parse(stdout)).toEqual({ signers: ['crcs.example/interop', 'witness.example/w1'], cosigned_at: ours });

    const line = note.split('\n').find((l) => l.startsWith('\u2014 witness.example/w1 '))!;
    const bytes = Buffer.from(line.split(' ')[2], 'base64');
    bytes[7] ^= 1; // the timestamp, which the signature covers
    const altered = await run(
      ['cosigned', vkey, witness.vkey],
      note.replace(line, `\u2014 witness.example/w1 ${bytes.toString('base64')}`),
    );
    expect(altered).toMatchObject({
      status: 1,
      stderr: `note.Open refused the cosigned checkpoint: invalid signature for key witness.example/w1+${witness.vkey.split('+')[1]}\n`,
    });
  });

  it('accepts a note Go signed with a key it generated, and refuses it with its text or signature changed', async () => {
    const text = 'witness.example/w1\n42\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n';
    const signed = await run(['sign', 'witness.example/w1'], text);
    expect(signed.status).toBe(0);
    const { vkey: goVkey, note } = JSON.parse(signed.stdout) as { vkey: string; note: string };
    const verifier = parseVerifierKey(goVkey);
    expect(openNote(note, [verifier])).toEqual({ text, signers: ['witness.example/w1'] });
    expect(() => openNote(note.replace('\n42\n', '\n43\n'), [verifier])).toThrow(
      'the signature of witness.example/w1 does not verify',
    );
    const signature = note.slice(note.lastIndexOf(' ') + 1, -1);
    const flipped = Buffer.from(signature, 'base64');
    flipped[10] ^= 1;
    expect(() => openNote(note.replace(signature, flipped.toString('base64')), [verifier])).toThrow(
      'the signature of witness.example/w1 does not verify',
    );
  });
});
