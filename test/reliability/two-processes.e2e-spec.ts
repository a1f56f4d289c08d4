import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { BUILT_MAIN, freePort, ServiceProcess } from '../support/service-process';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { Pool } from 'pg';
import { embeddedServerPid, inspectLog, loadUntil, onboard, post, recordSale, serviceEnv } from './support';
import { newSigningKey } from '../../packages/tlog/test/chain';
import { PgDatabase } from '../../src/platform/event-store/pg-database';
import { writerKey } from '@crcs/tlog';
import { verifyStoredLog } from '../../src/platform/verification/stored-verification';
import { childEnv } from '../support/child-env';

const LOAD_MS = 4000;

/**
 * Two service processes appending to one PostgreSQL at once: the head-row lock must serialize
 * them into one unbroken chain, with every acknowledged sale in it exactly once.
 */
(process.env.DATABASE_URL ? describe : describe.skip)('two service processes on one PostgreSQL', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
  });

  afterAll(() => database?.drop());

  it('keep one unbroken chain under concurrent load, with no duplicate ids, every entry authenticated by its writer', async () => {
    // One checkpoint key for both, as a deployment shares it: each process authenticates what it writes with the key derived from it.
    const signingKey = newSigningKey();
    // And one data folder, where their signer keeps its witness file (the checkout's ./data otherwise).
    const dataDir = await mkdtemp(join(tmpdir(), 'crcs-two-'));
    const env = serviceEnv({
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      CHECKPOINT_SIGNING_KEY: signingKey.export({ format: 'pem', type: 'pkcs8' }) as string,
    });
    // Two starts at once on a shared machine can take a while (as in key-revocation).
    const services = await Promise.all([ServiceProcess.start({ env }), ServiceProcess.start({ env })]);
    let load;
    try {
      const merchant = await onboard(services[0]);
      load = await loadUntil(services, merchant, 16, sleep(LOAD_MS));
    } finally {
      for (const service of services) await service.stop();
      await rm(dataDir, { recursive: true, force: true });
    }

    const log = await inspectLog({ databaseUrl: database.url });
    console.log(
      `two processes: ${load.sent} requests sent, ${load.created.length} acknowledged, ${log.verification.total_count} entries verified, ` +
        `${log.verification.break_count} breaks`,
    );
    expect(load.statuses).toEqual(new Map([[201, load.sent]]));
    expect(new Set(load.created).size).toBe(load.created.length);
    expect([...log.transactionIds].sort()).toEqual([...load.created].sort());
    expect(log.verification.break_count).toBe(0);
    expect(log.verification.verified_count).toBe(log.verification.total_count);
    expect(log.rebuilt).toEqual(log.live);
    const db = new PgDatabase(database.url);
    try {
      const [{ unauthenticated }] = await db.query<{ unauthenticated: string }>(
        'select count(*) as unauthenticated from events where writer_mac is null',
      );
      expect(Number(unauthenticated)).toBe(0);
      const writers = await verifyStoredLog(db, 1, log.verification.total_count, { writerKey: writerKey(signingKey) });
      expect({ breaks: writers.break_count, verified: writers.verified_count }).toEqual({
        breaks: 0,
        verified: log.verification.total_count,
      });
    } finally {
      await db.close();
    }
  }, 240_000);

  it('answer concurrent twins of a void or a refund with the first one’s answer, whichever process gets them', async () => {
    const env = serviceEnv({ DATABASE_URL: database.url });
    // Two starts at once on a shared machine can take a while (as in key-revocation).
    const services = await Promise.all([ServiceProcess.start({ env }), ServiceProcess.start({ env })]);
    const pool = new Pool({ connectionString: database.url });
    try {
      const merchant = await onboard(services[0]);
      const sale = async () =>
        (
          await post(services[0].baseUrl, merchant.key, '/transaction', {
            merchant_id: merchant.merchantId,
            subtotal_cents: 1000,
            tax_total_cents: 3,
            payment_method: 'cash',
            zip_code: '85004',
            cashier_id: 'c-1',
          })
        ).body.transaction.id as string;
      const twins = (path: string, body: unknown, key: string) =>
        Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            post(services[i % 2].baseUrl, merchant.key, path, body, { 'idempotency-key': key }),
          ),
        );
      const cases = [
        {
          path: '/transaction/void',
          body: (id: string) => ({ original_transaction_id: id, void_reason: 'pricing_error', voided_by: 'm-1' }),
          event: 'TransactionVoided',
        },
        {
          path: '/transaction/refund',
          body: (id: string) => ({
            original_transaction_id: id,
            refund_amount: 1005,
            void_reason: 'wrong_item',
            voided_by: 'm-1',
          }),
          event: 'RefundIssued',
        },
      ];
      for (const [n, change] of cases.entries()) {
        const id = await sale();
        const answers = await twins(change.path, change.body(id), `twins-${n}`);
        const first = answers.find((answer) => answer.status === 201)!;
        for (const answer of answers) {
          if (answer.status === 201) expect(answer.body).toEqual(first.body);
          else {
            expect({ status: answer.status, error: answer.body.error }).toEqual({
              status: 409,
              error: 'IDEMPOTENCY_KEY_IN_PROGRESS',
            });
            expect(answer.headers.get('retry-after')).toBe('1');
          }
        }
        const { rows } = await pool.query<{ count: string }>(
          'select count(*) from events where event_type = $1 and stream_id = $2',
          [change.event, `transaction-${id}`],
        );
        expect(Number(rows[0].count)).toBe(1);
        console.log(`twins of ${change.path}: statuses ${answers.map((answer) => answer.status).join(' ')}`);
      }
    } finally {
      await pool.end();
      for (const service of services) await service.stop();
    }
  }, 90_000);
});

/**
 * The embedded default has one owner: a second service started on the same data folder must
 * refuse, in one line and with a non-zero exit, and leave the first one and its server alone.
 */
describe('two service processes on one embedded data folder', () => {
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'crcs-two-'));
  });

  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('the second refuses with one line and exit 1, and the first serves on', async () => {
    const env = serviceEnv({ DATA_DIR: dataDir });
    const first = await ServiceProcess.start({ env, startupLimitMs: 90_000 });
    try {
      const merchant = await onboard(first);
      const server = embeddedServerPid(dataDir);
      const second = spawnSync(process.execPath, [BUILT_MAIN], {
        cwd: join(__dirname, '../..'),
        env: childEnv({ PORT: String(await freePort()), ...env }),
        encoding: 'utf8',
        timeout: 100_000,
      });
      console.log(`second service on one data folder: exit ${second.status}, ${JSON.stringify(second.stderr.trim())}`);
      expect(second.status).toBe(1);
      expect(second.stderr.trim()).toMatch(
        new RegExp(
          `^another service \\(pid ${first.child.pid}\\) is using the data folder \\S+; stop it or choose another DATA_DIR$`,
        ),
      );
      expect(embeddedServerPid(dataDir)).toBe(server);
      await recordSale(first, merchant);
    } finally {
      expect(await first.stop()).toBe(0);
    }
  }, 240_000);
});
