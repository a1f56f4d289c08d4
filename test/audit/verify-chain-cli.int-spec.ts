import { createPublicKey } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHECKPOINT_EVENT_TYPE, type CheckpointData, MerkleFrontier, leafHash, entryHash } from '@crcs/tlog';
import type { StoredEvent } from '../../src/platform/event-store/event-store.port';
import {
  checkpointPublicKey,
  checkpointsWritten,
  exportLog,
  parseExport,
  runVerifier,
  toExport,
  verifyExport,
} from '../support/audit';
import { issueKey, onboardMerchant } from '../support/auth';
import { newSigningKey, rehashFrom, treeHeadCheckpoint } from '../../packages/tlog/test/chain';
import { recordSale } from '../support/sales';
import { startTestApp } from '../support/test-app';

const withCashTotal = (e: StoredEvent, cents: number): StoredEvent => ({
  ...e,
  data: { ...e.data, calculation: { ...(e.data.calculation as object), cash_total_cents: cents } },
});

/**
 * An auditor's workflow: export the log and fetch the checkpoint key while the service runs, then
 * verify the file with nothing else, here after the service is gone.
 */
describe('the offline verifier on an exported log', () => {
  let dir: string;
  let log: StoredEvent[];
  let publicKey: string;
  const file = (name: string) => join(dir, name);
  const sales = () => log.filter((e) => e.type === 'TransactionRecorded');
  const checkpoints = () => log.filter((e) => e.type === CHECKPOINT_EVENT_TYPE);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'crcs-verify-'));
    const signingKey = newSigningKey().export({ format: 'pem', type: 'pkcs8' }) as string;
    const app = await startTestApp({ env: { CHECKPOINT_SIGNING_KEY: signingKey, CHECKPOINT_INTERVAL: '4' } });
    try {
      const merchant = await onboardMerchant(app);
      const { key } = await issueKey(app, { role: 'merchant', merchant_id: merchant.merchant_id });
      for (let i = 0; i < 10; i++) await recordSale(app, key, merchant.merchant_id, { subtotal_cents: 2000 + i });
      await checkpointsWritten(app);
      log = parseExport(await exportLog(app));
      publicKey = await checkpointPublicKey(app);
    } finally {
      await app.close();
    }
    await writeFile(file('audit.ndjson'), toExport(log));
    await writeFile(file('key.pem'), publicKey);
  });

  afterAll(() => rm(dir, { recursive: true, force: true }));

  describe('as a command', () => {
    it('passes an untouched export: status 0, the result on stdout, a summary on stderr', async () => {
      const { status, stdout, stderr } = await runVerifier([file('audit.ndjson'), '--public-key', file('key.pem')]);
      expect(status).toBe(0);
      expect(JSON.parse(stdout)).toMatchObject({
        total_count: log.length,
        verified_count: log.length,
        break_count: 0,
        checkpoints: { count: checkpoints().length, signatures_checked: true },
      });
      expect(stderr).toContain(`OK: ${log.length} entries, every hash and link verified`);
    });

    it('fails a tampered export with status 1, naming the entry', async () => {
      const victim = sales()[3];
      await writeFile(file('tampered.ndjson'), toExport(log.map((e) => (e === victim ? withCashTotal(e, 1) : e))));
      const { status, stdout, stderr } = await runVerifier([file('tampered.ndjson'), '--public-key', file('key.pem')]);
      expect(status).toBe(1);
      expect(JSON.parse(stdout).breaks).toEqual([
        expect.objectContaining({ kind: 'modified', position: victim.position, entry_id: victim.entryId }),
      ]);
      expect(stderr).toContain('TAMPERED: 1 breaks');
    });

    it('fails checkpoints signed by a key it was not given, with status 1', async () => {
      await writeFile(file('other.pem'), createPublicKey(newSigningKey()).export({ format: 'pem', type: 'spki' }));
      const { status, stdout } = await runVerifier([file('audit.ndjson'), '--public-key', file('other.pem')]);
      expect(status).toBe(1);
      expect(JSON.parse(stdout).break_count).toBe(checkpoints().length);
    });

    it('warns that signatures went unchecked without a public key', async () => {
      const { status, stderr } = await runVerifier([file('audit.ndjson')]);
      expect(status).toBe(0);
      expect(stderr).toContain('WARNING: no --public-key given: checkpoint signatures were NOT checked');
    });

    it('exits 2 when it cannot read its input', async () => {
      await writeFile(file('garbled.ndjson'), `${toExport(log.slice(0, 2))}{"position": 3}\n`);
      expect(await runVerifier([file('garbled.ndjson')])).toMatchObject({
        status: 2,
        stderr: 'verify-chain: line 3: field entry_id is missing or of the wrong type\n',
      });
      expect(await runVerifier([file('missing.ndjson')])).toMatchObject({
        status: 2,
        stderr: expect.stringContaining('cannot read'),
      });
      expect(await runVerifier([])).toMatchObject({
        status: 2,
        stderr: expect.stringContaining('usage: verify-chain'),
      });
    });
  });

  describe('finds each tampering of the file', () => {
    const verify = (entries: StoredEvent[]) => verifyExport(toExport(entries), [publicKey]);

    it('a changed amount', () => {
      const victim = sales()[2];
      expect(verify(log.map((e) => (e === victim ? withCashTotal(e, 5) : e))).breaks).toEqual([
        expect.objectContaining({ kind: 'modified', position: victim.position, entry_id: victim.entryId }),
      ]);
    });

    it('a deleted line', () => {
      const victim = sales()[2];
      expect(verify(log.filter((e) => e !== victim)).breaks).toEqual([
        expect.objectContaining({
          kind: 'deleted',
          position: victim.position + 1,
          missing_positions: { from: victim.position, to: victim.position },
        }),
      ]);
    });

    it('two swapped lines', () => {
      const [a, b] = [sales()[2], sales()[5]];
      const lines = log.map((e) => (e === a ? b : e === b ? a : e));
      expect(verify(lines).break_count).toBeGreaterThan(0);
      expect(verify(lines).breaks[0]).toMatchObject({ kind: 'reordered' });
    });

    it('an inserted line, hashed and linked, the lines after it renumbered', () => {
      const at = sales()[4].position;
      const entry = {
        ...log[at - 1],
        entryId: '1b2c3d4e-0000-4000-8000-00000000f00d',
        streamId: 'transaction-FORGED',
        prevHash: log[at - 2].hash,
      };
      const forged = { ...entry, hash: entryHash(entry) };
      const lines = [
        ...log.slice(0, at - 1),
        forged,
        ...log.slice(at - 1).map((e) => ({ ...e, position: e.position + 1 })),
      ];
      expect(verify(lines).breaks).toEqual([
        expect.objectContaining({ kind: 'inserted', position: at, entry_id: forged.entryId }),
      ]);
    });

    it('a rewrite of the tail with every hash recomputed, by the checkpoint after it', () => {
      const at = sales()[1].position;
      const next = checkpoints().find((e) => e.position > at)!;
      const breaks = verify(
        rehashFrom(
          log.map((e) => (e.position === at ? withCashTotal(e, 5) : e)),
          at,
        ),
      ).breaks;
      expect(breaks[0]).toMatchObject({
        kind: 'modified',
        position: next.position - 1,
        entry_id: log[next.position - 2].entryId,
        checkpoint: { checkpoint: next.data.checkpoint, position: next.position, entry_id: next.entryId },
      });
    });

    it('the same rewrite with its checkpoints re-signed by a key of the forger', () => {
      const at = sales()[1].position;
      const forger = newSigningKey();
      const lines = log.map((e) => (e.position === at ? withCashTotal(e, 5) : e));
      for (let i = at - 1; i < lines.length; i++) {
        if (i > 0) lines[i] = { ...lines[i], prevHash: lines[i - 1].hash };
        if (lines[i].type === CHECKPOINT_EVENT_TYPE) {
          const n = (lines[i].data as unknown as CheckpointData).checkpoint;
          const tree = MerkleFrontier.empty();
          for (const e of lines.slice(0, i)) tree.append(leafHash(e.hash));
          lines[i] = {
            ...lines[i],
            data: { ...treeHeadCheckpoint(forger, n, { position: i, hash: lines[i].prevHash }, tree.root()) },
          };
        }
        lines[i] = { ...lines[i], hash: entryHash(lines[i]) };
      }
      const breaks = verify(lines).breaks;
      expect(breaks.length).toBeGreaterThan(0);
      breaks.forEach((b) =>
        expect(b.detail).toMatch(/^checkpoint \d+ is signed by key [0-9a-f]{16}, which is not among the keys given$/),
      );
    });
  });
});
