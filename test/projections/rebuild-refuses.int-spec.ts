import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { DATABASE, type Database } from '../../src/platform/event-store/sql';
import { issueKey, onboardMerchant } from '../support/auth';
import { newSigningKey } from '../../packages/tlog/test/chain';
import { childEnv } from '../support/child-env';
import { recordSale } from '../support/sales';
import { appendForgedEntry, changeData } from '../support/tampering';
import { createTestDatabase, DRIVERS, type TestDatabase } from '../support/test-database';
import { startTestApp, type TestApp } from '../support/test-app';

const ROOT = join(__dirname, '../..');

/**
 * `npm run projections:rebuild` against an operator who changed the log with SQL (issue 48, item 4):
 * it verifies the chain and every entry's writer authenticator first, and refuses a log that does
 * not verify before it touches a read model, so a rebuild cannot launder the change into them.
 */
describe.each(DRIVERS)('projections:rebuild on a log changed by SQL, on %s', (driver) => {
  let testDb: TestDatabase;
  let app: TestApp;
  let db: Database;
  let pem: string;
  let sales: { id: string; position: number }[];

  beforeEach(async () => {
    pem = newSigningKey().export({ format: 'pem', type: 'pkcs8' }) as string;
    // The rebuild opens the service's database as another process: a database of the server's, not a server of the app's own.
    testDb = await createTestDatabase(driver);
    app = await startTestApp({ env: { DATABASE_URL: testDb.url, CHECKPOINT_SIGNING_KEY: pem } });
    db = app.app.get(DATABASE);
    const { merchant_id: merchantId } = await onboardMerchant(app);
    const { key } = await issueKey(app, { role: 'merchant', merchant_id: merchantId });
    sales = [];
    for (let i = 0; i < 3; i++) {
      const sale = await recordSale(app, key, merchantId);
      sales.push({ id: sale.id, position: sale.chain_position });
    }
  });

  afterEach(async () => {
    await app?.close();
    await testDb?.drop();
  });

  const rebuild = () =>
    new Promise<{ status: number; stdout: string; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        ['dist/scripts/rebuild-projections.js'],
        { cwd: ROOT, env: childEnv({ DATABASE_URL: testDb.url, CHECKPOINT_SIGNING_KEY: pem }) },
        (error, stdout, stderr) => resolve({ status: error ? Number(error.code) : 0, stdout, stderr }),
      ),
    );
  const subtotalInReadModel = async (id: string) =>
    Number(
      (await db.query<{ subtotal_cents: string }>('select subtotal_cents from rm_transactions where id = $1', [id]))[0]
        .subtotal_cents,
    );

  it('rebuilds from a log that verifies', async () => {
    const { status, stdout, stderr } = await rebuild();
    expect({ status, stderr }).toEqual({ status: 0, stderr: '' });
    expect(stdout).toMatch(/^verified \d+ entries and rebuilt \d+ read models from them in \d+ ms: /);
  });

  it('refuses an acknowledged sale rewritten in the log, and leaves the read models alone', async () => {
    await changeData(db, sales[1].position, ['subtotal_cents'], 9000);
    const { status, stdout, stderr } = await rebuild();
    expect({ status, stdout }).toEqual({ status: 1, stdout: '' });
    expect(stderr).toMatch(
      new RegExp(
        `^projections:rebuild refused: the log does not verify: 1 break\\(s\\), the first at position ${sales[1].position} \\(modified\\): .+\\. ` +
          'No read model was touched: GET /admin/verify-hash-chain names every break\\n$',
      ),
    );
    expect(await subtotalInReadModel(sales[1].id)).toBe(1000);
  });

  it('refuses a sale forged at the tail, hashed and linked but without a writer authenticator', async () => {
    const forged = await appendForgedEntry(db, { transaction_id: 'TXN-2026-11-21-FORGED01', subtotal_cents: 9000 });
    const { status, stderr } = await rebuild();
    expect(status).toBe(1);
    expect(stderr).toMatch(
      new RegExp(
        `^projections:rebuild refused: the log does not verify: 1 break\\(s\\), the first at position ${forged.position} \\(unauthenticated\\): `,
      ),
    );
    expect(await db.query('select 1 from rm_transactions where id = $1', ['TXN-2026-11-21-FORGED01'])).toEqual([]);
  });
});
