import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DATABASE, type Database } from '../../src/platform/event-store/sql';
import { checkpointPublicKey, checkpointsWritten, runVerifier } from '../support/audit';
import { call, issueKey, onboardMerchant } from '../support/auth';
import { newSigningKey } from '../support/chain';
import { recordSale } from '../support/sales';
import { cutEntry } from '../support/tampering';
import { startTestApp, TEST_ADMIN_KEY, type TestApp } from '../support/test-app';

const alarmsIn = async (db: Database) =>
  (await db.query<{ data: { source: string; kind: string; position: number; detail: string } }>("select data from events where event_type = 'ChainAlarmRaised' order by position")).map(
    (row) => row.data,
  );

/**
 * DESIGN.md "Tamper evidence against whoever runs the database", the writes' side: a dishonest
 * operator with SQL and no key, against what the service answers for its writes. Each attack is
 * made on the real database; each test names what detects it and how it says so.
 */
describe('attacks by whoever runs the database, on what the service wrote', () => {
  let app: TestApp;
  let db: Database;
  let dir: string;
  let merchant: { key: string; id: string };
  const file = (name: string) => join(dir, name);
  const get = (path: string, key = TEST_ADMIN_KEY) => call(app, 'GET', path, { key });

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'crcs-attacks-'));
    const signingKey = newSigningKey().export({ format: 'pem', type: 'pkcs8' }) as string;
    app = await startTestApp({ env: { CHECKPOINT_SIGNING_KEY: signingKey, CHECKPOINT_INTERVAL: '4' } });
    db = app.app.get(DATABASE);
    const { merchant_id } = await onboardMerchant(app);
    merchant = { key: (await issueKey(app, { role: 'merchant', merchant_id })).key, id: merchant_id };
    await writeFile(file('key.pem'), await checkpointPublicKey(app));
  });

  afterEach(async () => {
    await app?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('the receipt of a sale deleted by SQL, another entry moved into its place: the service answers 503 and verify-chain fails its proof', async () => {
    const sale = await recordSale(app, merchant.key, merchant.id, { subtotal_cents: 4200 });
    for (let i = 0; i < 5; i++) await recordSale(app, merchant.key, merchant.id, { subtotal_cents: 1000 + i });
    await checkpointsWritten(app);
    const kept = await get(`/transaction/${sale.id}/receipt?format=audit`, merchant.key);
    expect(kept.status).toBe(200);

    await cutEntry(db, sale.chain_position);

    const after = await get(`/transaction/${sale.id}/receipt?format=audit`, merchant.key);
    expect(after.status).toBe(503);
    expect(after.body).toEqual({
      error: 'CHAIN_TAMPERED',
      message: expect.stringMatching(new RegExp(`^The audit log was tampered with: the entry at position ${sale.chain_position} has hash [0-9a-f]{64}, not the record's audit hash ${sale.auditHash}`)),
    });
    expect(await alarmsIn(db)).toContainEqual(expect.objectContaining({ source: 'receipt', kind: 'modified', position: sale.chain_position }));

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
  });
});
