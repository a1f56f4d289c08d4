import type { KeyObject } from 'node:crypto';
import { Witness } from '../../src/audit/witness';
import { DATABASE, type Database } from '../../src/platform/event-store/sql';
import type { ChainVerification } from '@crcs/tlog';
import type { StoredEvent } from '../../src/platform/event-store/event-store.port';
import { checkpointPublicKey, checkpointsWritten, exportLog, parseExport, verifyExport } from '../support/audit';
import { call, issueKey, onboardMerchant } from '../support/auth';
import { newSigningKey } from '../../packages/tlog/test/chain';
import { recordSale } from '../support/sales';
import { changeData, deleteEntry, entryAt, insertForgedEntry, rewriteTail, swapEntries } from '../support/tampering';
import { DRIVERS } from '../support/test-database';
import { startTestApp, TEST_ADMIN_KEY, type TestApp } from '../support/test-app';

const CASH_TOTAL = ['calculation', 'cash_total_cents'];

/**
 * The log of a running service edited with SQL behind its back: `GET /admin/verify-hash-chain`
 * must name each break, and the offline verifier, given an export and the checkpoint public key,
 * must find exactly the same.
 */
describe.each(DRIVERS)('tampering with the database of a running service, on %s', (driver) => {
  let app: TestApp;
  let db: Database;
  let publicKey: string;
  let signingKey: KeyObject;
  /** The sales' entries, in chain order. */
  let sales: StoredEvent[];

  beforeEach(async () => {
    signingKey = newSigningKey();
    app = await startTestApp({
      driver,
      env: {
        CHECKPOINT_SIGNING_KEY: signingKey.export({ format: 'pem', type: 'pkcs8' }) as string,
        CHECKPOINT_INTERVAL: '5',
      },
    });
    db = app.app.get(DATABASE);
    const merchant = await onboardMerchant(app);
    const { key } = await issueKey(app, { role: 'merchant', merchant_id: merchant.merchant_id });
    for (let i = 0; i < 12; i++) await recordSale(app, key, merchant.merchant_id, { subtotal_cents: 1000 + i });
    await checkpointsWritten(app);
    publicKey = await checkpointPublicKey(app);
    sales = parseExport(await exportLog(app)).filter((e) => e.type === 'TransactionRecorded');
  });

  afterEach(() => app?.close());

  /**
   * The endpoint's result, after checking that the offline verifier, given the signing key as the
   * service has it (writer authenticators included), agrees with it. The export is
   * taken first: a verification that finds a break appends its alarm to the log after it.
   */
  async function verifyBothWays(): Promise<ChainVerification> {
    const exported = await exportLog(app);
    // Up to the export's end: the signer's timer may append an alarm or a checkpoint in between.
    const end = parseExport(exported).at(-1)!.position;
    const { status, body } = await call(app, 'GET', `/admin/verify-hash-chain?to_position=${end}`, {
      key: TEST_ADMIN_KEY,
    });
    expect(status).toBe(200);
    const { from_position: fromPosition, to_position: toPosition, ...result } = body;
    expect(verifyExport(exported, [publicKey], await app.app.get(Witness).heads(), signingKey)).toEqual(result);
    // The chain's own findings: what the witnessed heads add is tree-heads.int-spec.ts's subject.
    const breaks = result.breaks.filter(
      (found: { witnessed_tree_size?: number }) => found.witnessed_tree_size === undefined,
    );
    return { ...result, breaks, break_count: breaks.length };
  }

  it('finds nothing in an untouched log', async () => {
    expect(await verifyBothWays()).toMatchObject({
      break_count: 0,
      checkpoints: { count: expect.any(Number), signatures_checked: true },
    });
  });

  it('finds a changed amount', async () => {
    const victim = sales[4];
    await changeData(db, victim.position, CASH_TOTAL, 1);
    expect(await verifyBothWays()).toMatchObject({
      break_count: 1,
      breaks: [{ kind: 'modified', position: victim.position, entry_id: victim.entryId, stored_hash: victim.hash }],
    });
  });

  it('finds a deleted entry', async () => {
    const victim = sales[4];
    const next = await entryAt(db, victim.position + 1);
    await deleteEntry(db, victim.position);
    expect(await verifyBothWays()).toMatchObject({
      break_count: 1,
      breaks: [
        {
          kind: 'deleted',
          position: next.position,
          entry_id: next.entryId,
          missing_positions: { from: victim.position, to: victim.position },
          actual_prev_hash: victim.hash,
        },
      ],
    });
  });

  it('finds two swapped entries', async () => {
    const [a, b] = [sales[3], sales[7]];
    await swapEntries(db, a.position, b.position);
    expect(await verifyBothWays()).toMatchObject({
      break_count: 2,
      breaks: [
        { kind: 'reordered', position: a.position, entry_id: b.entryId, original_position: b.position },
        { kind: 'reordered', position: b.position, entry_id: a.entryId, original_position: a.position },
      ],
    });
  });

  it('finds an inserted entry, forged with a correct hash and link', async () => {
    const forged = await insertForgedEntry(db, sales[6].position, { ...sales[6].data, transaction_id: 'TXN-FORGED' });
    // It has no writer authenticator either: both findings name it.
    expect(await verifyBothWays()).toMatchObject({
      break_count: 2,
      breaks: [
        { kind: 'unauthenticated', position: sales[6].position, entry_id: forged.entryId },
        { kind: 'inserted', position: sales[6].position, entry_id: forged.entryId },
      ],
    });
  });

  it('finds a rewrite of the tail that recomputed every hash and re-pointed the checkpoints, by their signatures', async () => {
    await rewriteTail(db, sales[2].position, CASH_TOTAL, 1, { repointCheckpoints: true });
    const rewritten = parseExport(await exportLog(app)).filter((e) => e.position >= sales[2].position);
    const checkpoints = rewritten.filter((e) => e.type === 'ChainCheckpointed');
    expect(checkpoints.length).toBeGreaterThan(0);
    const result = await verifyBothWays();
    expect(result.breaks.filter((b) => b.kind === 'modified')).toEqual(
      checkpoints.map((e) =>
        expect.objectContaining({
          kind: 'modified',
          position: e.position,
          entry_id: e.entryId,
          detail: `checkpoint ${String(e.data.checkpoint)} has an invalid signature`,
        }),
      ),
    );
    // Every other rewritten entry has a new hash, which its writer authenticator does not vouch for.
    expect(result.breaks.filter((b) => b.kind !== 'modified')).toEqual(
      rewritten
        .filter((e) => e.type !== 'ChainCheckpointed')
        .map((e) => expect.objectContaining({ kind: 'unauthenticated', position: e.position })),
    );
    // Without the public key, such a rewrite leaves nothing to see.
    expect(verifyExport(await exportLog(app))).toMatchObject({
      break_count: 0,
      checkpoints: { signatures_checked: false },
    });
  });

  it('finds a rewrite of the tail that recomputed every hash, at the entries the checkpoints vouched for', async () => {
    const firstCheckpointAfter = parseExport(await exportLog(app)).find(
      (e) => e.type === 'ChainCheckpointed' && e.position > sales[2].position,
    )!;
    const vouched = await entryAt(db, firstCheckpointAfter.position - 1);
    await rewriteTail(db, sales[2].position, CASH_TOTAL, 1);
    const result = await verifyBothWays();
    expect(result.breaks).toContainEqual(
      expect.objectContaining({
        kind: 'modified',
        position: vouched.position,
        entry_id: vouched.entryId,
        expected_hash: vouched.hash,
        checkpoint: {
          checkpoint: firstCheckpointAfter.data.checkpoint,
          position: firstCheckpointAfter.position,
          entry_id: firstCheckpointAfter.entryId,
        },
      }),
    );
  });
});
