import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StoredEvent } from '../../src/platform/event-store/event-store.port';
import { DATABASE, type Database } from '../../src/platform/event-store/sql';
import { checkpointPublicKey, checkpointsWritten, parseExport } from '../support/audit';
import { call, issueKey } from '../support/auth';
import { newSigningKey } from '../../packages/tlog/test/chain';
import { changeData } from '../support/tampering';
import { startTestApp, TEST_ADMIN_KEY, type TestApp } from '../support/test-app';
import { childEnv } from '../support/child-env';
import { readModelsCaughtUp } from '../support/read-models';

const ROOT = join(__dirname, '../..');

interface Run {
  status: number;
  stdout: string;
  stderr: string;
}

/**
 * `npm run example:<name>` as its own process, as a user runs it: only PATH and the variables the
 * example documents, none of the test runner's environment (NODE_OPTIONS included).
 */
function runExample(file: string, env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', `examples/${file}`],
      // Under the test's own ceiling, so that a hung example is stopped and reported as such; a loaded
      // machine took over 40 s to compile and run one.
      { cwd: ROOT, env: childEnv(env), timeout: 110_000 },
      (error, stdout, stderr) => resolve({ status: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

interface Transaction {
  id: string;
  type: 'SALE' | 'VOID' | 'REFUND';
  state: string;
  original_transaction_id: string | null;
  refunded_cents: number;
  calculation: {
    ledger_total_cents: number;
    cash_portion_cents: number;
    rounding_delta_cents: number;
    rounding_applied: boolean;
    is_split_tender: boolean;
    tenders: { type: string }[];
  };
}

const dollars = (cents: number) => `${cents < 0 ? '-' : ''}$${(Math.abs(cents) / 100).toFixed(2)}`;

/**
 * The examples run against the real service on real HTTP, with signed checkpoints: the POS client's
 * day must land in the read models as it says, and the auditor's offline verification must pass
 * the untouched log and name the entry an SQL edit changed behind the service's back.
 */
describe('examples/ against a running service', () => {
  let app: TestApp;
  let dir: string;
  let auditorKey: string;
  let pos: Run;
  let merchantId: string;
  let day: Transaction[];
  const sales = () => day.filter((t) => t.type === 'SALE');
  const auditDir = () => join(dir, 'audit');

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'crcs-examples-'));
    const signingKey = newSigningKey().export({ format: 'pem', type: 'pkcs8' }) as string;
    app = await startTestApp({ env: { CHECKPOINT_SIGNING_KEY: signingKey, CHECKPOINT_INTERVAL: '5' } });
    auditorKey = (await issueKey(app, { role: 'auditor' })).key;
    pos = await runExample('pos-client.ts', { CRCS_BASE_URL: app.baseUrl, CRCS_ADMIN_KEY: TEST_ADMIN_KEY });
  });

  afterAll(async () => {
    await app?.close();
    await rm(dir, { recursive: true, force: true });
  });

  describe('pos-client.ts', () => {
    it('runs the day and exits 0', async () => {
      expect({ status: pos.status, stderr: pos.stderr }).toEqual({ status: 0, stderr: '' });
      merchantId = /Onboarded merchant (\S+);/.exec(pos.stdout)![1];
      // The read model, as an auditor reads it: not through anything the client printed, once it
      // has followed the log up to the client's last sale.
      await readModelsCaughtUp(app.app.get<Database>(DATABASE));
      const { status, body } = await call(app, 'GET', `/transactions?merchant_id=${merchantId}&limit=1000`, {
        key: auditorKey,
      });
      expect(status).toBe(200);
      day = body.transactions;
    });

    it('recorded each tender once (the retry with the same Idempotency-Key included), rounding cash only', () => {
      expect(day.map((t) => t.type).sort()).toEqual(['REFUND', ...Array(8).fill('SALE'), 'VOID']);
      const tenders = (t: Transaction) =>
        t.calculation.tenders
          .map((tender) => tender.type)
          .sort()
          .join('+');
      expect(sales().map(tenders).sort()).toEqual([
        'card',
        'card+cash',
        'cash',
        'cash',
        'cash',
        'cash+ebt',
        'ebt',
        'mobile',
      ]);
      for (const sale of sales()) {
        const hasCash = sale.calculation.tenders.some((tender) => tender.type === 'cash');
        expect(sale.calculation.rounding_applied).toBe(hasCash);
        if (!hasCash) expect(sale.calculation.rounding_delta_cents).toBe(0);
      }
      expect(sales().filter((t) => t.calculation.rounding_delta_cents !== 0)).toHaveLength(5);
      expect(sales().filter((t) => t.calculation.is_split_tender)).toHaveLength(2);
      expect(pos.stdout).toContain('again (replayed: true), nothing recorded twice');
    });

    it('voided one sale and refunded part of another, as it printed', () => {
      const voidRecord = day.find((t) => t.type === 'VOID')!;
      const voided = day.find((t) => t.id === voidRecord.original_transaction_id)!;
      expect(voided.state).toBe('voided');
      expect(pos.stdout).toContain(
        `Voided ${voided.id} (customer_changed_mind, by manager-07): VOID ${voidRecord.id},`,
      );
      expect(pos.stdout).toContain('the sale is now voided');

      const refund = day.find((t) => t.type === 'REFUND')!;
      const refunded = day.find((t) => t.id === refund.original_transaction_id)!;
      expect(refunded).toMatchObject({ state: 'partially_refunded', refunded_cents: 405 });
      expect(pos.stdout).toContain(
        `Refunded $4.07 of ${refunded.id} (defective_product, by cashier-114): REFUND ${refund.id},`,
      );
      expect(pos.stdout).toContain(
        'normalization check passed; the sale is now partially_refunded, $3.80 still refundable',
      );
    });

    it('printed every receipt of the day, as the service renders it', async () => {
      expect(pos.stdout).toContain(`Receipts (${day.length})`);
      for (const t of day) {
        const { status, body } = await call(app, 'GET', `/transaction/${t.id}/receipt`, { key: auditorKey });
        expect(status).toBe(200);
        expect(pos.stdout).toContain(`${'-'.repeat(38)}\n${body.receipt.text}\n${'-'.repeat(38)}`);
      }
      expect(pos.stdout).toContain('Status: VOIDED');
      expect(pos.stdout).toContain('Status: PARTIALLY REFUNDED');
    });

    it('summed the day as the read model has it', () => {
      const sum = (pick: (t: Transaction) => number) => day.reduce((total, t) => total + pick(t), 0);
      const ledger = sum((t) => t.calculation.ledger_total_cents);
      const cash = sum((t) => t.calculation.cash_portion_cents + t.calculation.rounding_delta_cents);
      const rounding = sum((t) => t.calculation.rounding_delta_cents);
      const line = `Day summary: 8 sales (1 partially refunded, 1 voided), ledger total ${dollars(ledger)}, cash collected ${dollars(cash)}, net rounding ${dollars(rounding)}`;
      expect(pos.stdout).toContain(line);
      // The figures of the fixed day in examples/README.md.
      expect(line).toBe(
        'Day summary: 8 sales (1 partially refunded, 1 voided), ledger total $180.32, cash collected $28.70, net rounding -$0.02',
      );
    });
  });

  describe('auditor.ts', () => {
    let exported: StoredEvent[];

    it('issues itself an auditor key, keeps the checkpoint key, and verifies the untouched export offline: exit 0', async () => {
      await checkpointsWritten(app);
      const run = await runExample('auditor.ts', {
        CRCS_BASE_URL: app.baseUrl,
        CRCS_ADMIN_KEY: TEST_ADMIN_KEY,
        CRCS_AUDIT_DIR: auditDir(),
      });
      expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
      expect(run.stdout).toMatch(/auditor key: key_\S+, issued with the admin key/);
      expect(await readFile(join(auditDir(), 'checkpoint-key.pem'), 'utf8')).toBe(await checkpointPublicKey(app));

      exported = parseExport(await readFile(join(auditDir(), 'audit-log.ndjson'), 'utf8'));
      const n = exported.length;
      const checkpoints = exported.filter((e) => e.type === 'ChainCheckpointed').length;
      expect(checkpoints).toBeGreaterThan(0);
      expect(run.stdout).toContain(`OK: ${n} entries, every hash and link verified`);
      expect(run.stdout).toContain(
        `Result: ${n} of ${n} entries verified, 0 breaks, ${checkpoints} checkpoint${checkpoints === 1 ? '' : 's'} (checkpoint signatures checked)`,
      );
      // The service's own verification of the same range agrees.
      const { body } = await call(app, 'GET', `/admin/verify-hash-chain?to_position=${n}`, { key: auditorKey });
      expect(body).toMatchObject({ total_count: n, verified_count: n, break_count: 0 });
    });

    it('names the entry changed in the database, with the key kept from before: exit 1', async () => {
      const voided = day.find((t) => t.type === 'VOID')!.original_transaction_id;
      const victim = exported.find((e) => e.type === 'TransactionRecorded' && e.data.transaction_id === voided)!;
      await changeData(app.app.get<Database>(DATABASE), victim.position, ['calculation', 'cash_total_cents'], 1);

      const run = await runExample('auditor.ts', {
        CRCS_BASE_URL: app.baseUrl,
        CRCS_AUDITOR_KEY: auditorKey,
        CRCS_AUDIT_DIR: auditDir(),
      });
      expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 1, stderr: '' });
      expect(run.stdout).toContain('checkpoint key: the one kept in');
      expect(run.stdout).toMatch(/TAMPERED: 1 breaks in \d+ entries/);
      expect(run.stdout).toMatch(/Result: \d+ of \d+ entries verified, 1 break,/);
      expect(run.stdout).toContain(`break at position ${victim.position}: modified, entry ${victim.entryId}:`);
    });
  });
});
