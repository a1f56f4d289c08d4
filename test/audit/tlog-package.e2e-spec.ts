import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cosignatures, parseCosignerKey, verifierKey } from '@crcs/tlog';
import { Cosignatures } from '../../src/audit/cosignatures';
import { checkpointsWritten, exportLog, parseExport, toExport } from '../support/audit';
import { call, issueKey, onboardMerchant, uniqueId } from '../support/auth';
import { newSigningKey } from '../../packages/tlog/test/chain';
import { childEnv } from '../support/child-env';
import { recordSale } from '../support/sales';
import { startTestApp, TEST_ADMIN_KEY, type TestApp } from '../support/test-app';
import { appendEntries } from '../support/transparency-log';
import { WitnessProcess } from '../support/witness-process';

/*
 * The log package as an auditor gets it (docs/auditors.md, ADR 0027): packages/tlog packed with
 * `npm pack`, installed from its tarball into an empty folder, nothing of the service's beside it.
 * Its `witness` cosigns the running service's checkpoints, and its `verify-chain` verifies the
 * service's export and refuses an edited copy of it.
 */

const ROOT = join(__dirname, '../..');
const ORIGIN = 'crcs.example/tlog-package';

interface Run {
  status: number;
  stdout: string;
  stderr: string;
}

describe('the log package, packed and installed alone', () => {
  let work: string;
  let installed: string;
  let app: TestApp;
  let witness: WitnessProcess;
  let npmEnv: NodeJS.ProcessEnv;

  /** A command as the auditor runs it, in their folder; npm's own temporary files in the run's folder. */
  const run = (file: string, args: string[], cwd = installed): Promise<Run> =>
    new Promise((resolve) => {
      execFile(file, args, { cwd, env: npmEnv, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
        resolve({ status: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
    });
  const bin = (name: string) => join(installed, 'node_modules', '.bin', name);

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'crcs-tlog-package-'));
    await mkdir(join(work, 'tmp'));
    npmEnv = childEnv({ HOME: process.env.HOME, NODE_OPTIONS: '', TMPDIR: join(work, 'tmp') });
    const packed = await run('npm', ['pack', '--json', '--pack-destination', work], join(ROOT, 'packages/tlog'));
    if (packed.status !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
    const [{ filename }] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as { filename: string }[];
    installed = join(work, 'auditor');
    await mkdir(installed);
    const install = await run('npm', ['install', join(work, filename), '--prefer-offline', '--no-audit', '--no-fund']);
    if (install.status !== 0) throw new Error(`npm install failed: ${install.stderr}`);

    // The installed witness, for a log whose policy names it: the service asks it to cosign each checkpoint.
    const key = newSigningKey();
    witness = await WitnessProcess.start(
      join(work, 'witness'),
      [verifierKey(ORIGIN, key)],
      'witness.example/w1',
      '127.0.0.1:0',
      bin('witness'),
    );
    await writeFile(join(work, 'policy'), `witness W1 ${witness.vkey} ${witness.url}\nquorum W1\n`);
    app = await startTestApp({
      env: {
        CHECKPOINT_SIGNING_KEY: key.export({ format: 'pem', type: 'pkcs8' }) as string,
        CHECKPOINT_INTERVAL: '20',
        CHECKPOINT_MAX_AGE_S: '3600',
        LOG_ORIGIN: ORIGIN,
        LOG_POLICY_FILE: join(work, 'policy'),
      },
    });
    const merchantId = uniqueId('m-tlog');
    await onboardMerchant(app, { merchant_id: merchantId, name: 'Package Deli' });
    const { key: merchantKey } = await issueKey(app, { role: 'merchant', merchant_id: merchantId, name: 'lane 1' });
    for (let i = 0; i < 3; i++) await recordSale(app, merchantKey, merchantId);
    await appendEntries(app, 30);
    await checkpointsWritten(app);
    await app.app.get(Cosignatures).idle();
    await writeFile(join(installed, 'audit-log.ndjson'), await exportLog(app));
    const keyAnswer = await call(app, 'GET', '/admin/checkpoint-key', { key: TEST_ADMIN_KEY });
    await writeFile(join(installed, 'checkpoint-key.pem'), keyAnswer.body.public_key_pem as string);
  }, 240_000);

  afterAll(async () => {
    await app?.close();
    await witness?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('installs alone: the package and its built JavaScript, no framework, database driver or ts-node', async () => {
    const modules = join(installed, 'node_modules');
    expect(await readdir(join(modules, '@crcs'))).toEqual(['tlog']);
    for (const absent of ['@nestjs', 'pg', 'ts-node', 'class-validator', 'typescript'])
      expect({ absent, present: existsSync(join(modules, absent)) }).toEqual({ absent, present: false });
    const files = await readdir(join(modules, '@crcs/tlog/dist'), { recursive: true });
    expect(files).toEqual(expect.arrayContaining(['index.js', 'hash-pool.worker.js', 'bin/verify-chain.js']));
    expect(files.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))).toEqual([]);
  });

  it("verifies the service's export with the installed verify-chain, its checkpoint signatures too", async () => {
    const { status, stdout, stderr } = await run(bin('verify-chain'), [
      'audit-log.ndjson',
      '--public-key',
      'checkpoint-key.pem',
    ]);
    expect({ status, stderr }).toEqual({ status: 0, stderr: expect.stringMatching(/^OK: \d+ entries/) });
    const result = JSON.parse(stdout);
    expect({ break_count: result.break_count, signatures_checked: result.checkpoints.signatures_checked }).toEqual({
      break_count: 0,
      signatures_checked: true,
    });
    expect(result.checkpoints.count).toBeGreaterThan(0);
  });

  it('refuses an edited copy of the export', async () => {
    const entries = parseExport(await readFile(join(installed, 'audit-log.ndjson'), 'utf8'));
    const sale = entries.find((e) => e.type === 'TransactionRecorded')!;
    sale.data = { ...sale.data, cash_total_cents: 1 };
    await writeFile(join(installed, 'edited.ndjson'), toExport(entries));
    const { status, stdout, stderr } = await run(bin('verify-chain'), ['edited.ndjson']);
    expect({ status, stderr }).toEqual({ status: 1, stderr: expect.stringMatching(/^TAMPERED: /) });
    expect(JSON.parse(stdout).breaks).toEqual(
      expect.arrayContaining([expect.objectContaining({ position: sale.position })]),
    );
  });

  it("leaves the CSV export's check to the service: the installed verify-chain says where it is", async () => {
    const { status, stderr } = await run(bin('verify-chain'), [
      'export',
      'transactions.csv',
      '--log',
      'audit-log.ndjson',
    ]);
    expect({ status, stderr }).toEqual({ status: 2, stderr: expect.stringContaining('npm run verify-export --') });
  });

  it("the installed witness cosigned the log's checkpoint: verify-chain finds the policy's quorum", async () => {
    const note = (await call(app, 'GET', '/log/checkpoint', { key: TEST_ADMIN_KEY })).body as string;
    const vkey = (await call(app, 'GET', '/log/vkey', { key: TEST_ADMIN_KEY })).body.trim() as string;
    expect(cosignatures(note, [parseCosignerKey(witness.vkey)]).size).toBe(1);
    await writeFile(join(installed, 'checkpoint'), note);
    await writeFile(join(installed, 'policy'), `log ${vkey}\n${await readFile(join(work, 'policy'), 'utf8')}`);
    const { status, stderr } = await run(bin('verify-chain'), ['checkpoint', 'checkpoint', '--policy', 'policy']);
    expect({ status, stderr }).toEqual({
      status: 0,
      stderr: expect.stringContaining("cosignatures meeting the policy's quorum (W1)"),
    });
  });
});
