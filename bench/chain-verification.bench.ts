/**
 * Verification of a 1,000,000-entry chain, beside its floor: single-core SHA-256 over the very
 * bytes hashed at append time (the canonical JSON of each entry), in the same run.
 *
 * - The endpoint's path: the entries are written to a PostgreSQL database of their own (untimed),
 *   then `verifyStoredLog` (what `GET /admin/verify-hash-chain` runs, from the built service)
 *   reads and verifies them.
 * - The offline verifier: the same entries as an export file, checked by the built CLI
 *   (`packages/tlog/dist/bin/verify-chain.js`) in a process of its own, start-up included.
 *
 * Entries are built a chunk at a time, with one stream per sale as in the service (bench/support/chain-entries.ts).
 * Run: npm run bench (builds first); alone, after `npm run build`:
 * node -r ts-node/register/transpile-only bench/chain-verification.bench.ts [entries, default 1000000]
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { createTestDatabase } from '../test/support/test-database';
import { insertEntries, saleEntries } from './support/chain-entries';
import { replaceSection } from './support/report';

// The built modules, as the service and the CLI run them (their hashing threads are built JavaScript too).
const { exportLine } = require('@crcs/tlog') as typeof import('@crcs/tlog');
const { migrate } =
  require('../dist/src/platform/event-store/migrations') as typeof import('../src/platform/event-store/migrations');
const { verifyStoredLog } =
  require('../dist/src/platform/verification/stored-verification') as typeof import('../src/platform/verification/stored-verification');

const ENTRIES = Number(process.argv[2] ?? 1_000_000);
const CHUNK = 1000;
process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';

const seconds = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e9;

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'crcs-chain-bench-'));
  const database = await createTestDatabase('postgres');
  const db = await database.open();
  try {
    await migrate(db);
    // The bench's own database: a gigabyte and a half of rows need not go through the write-ahead log.
    await db.query('alter table events set unlogged');
    const file = join(dir, 'export.ndjson');
    const out = createWriteStream(file);
    const nextChunk = saleEntries();
    let floor = 0;
    let bytes = 0;
    let sink = 0; // consumed below so that no hashing can be optimized away
    for (let done = 0; done < ENTRIES; done += CHUNK) {
      const chunk = nextChunk(Math.min(CHUNK, ENTRIES - done));
      await insertEntries(db, chunk);
      if (!out.write(chunk.map((e) => exportLine(e.bytes, e.hash)).join(''))) await once(out, 'drain');
      const buffers = chunk.map((e) => Buffer.from(e.bytes));
      bytes += buffers.reduce((sum, b) => sum + b.length, 0);
      const start = process.hrtime.bigint();
      for (const b of buffers) sink += createHash('sha256').update(b).digest()[0];
      floor += seconds(start);
    }
    out.end();
    await once(out, 'finish');
    await db.query('vacuum analyze events');

    const rssBefore = process.memoryUsage().rss;
    let endpointPeak = rssBefore;
    const sampler = setInterval(() => (endpointPeak = Math.max(endpointPeak, process.memoryUsage().rss)), 100);
    const endpointStart = process.hrtime.bigint();
    const verified = await verifyStoredLog(db, 1, ENTRIES);
    const endpoint = seconds(endpointStart);
    clearInterval(sampler);
    if (verified.verified_count !== ENTRIES) throw new Error('the stored chain did not verify');

    const cliStart = process.hrtime.bigint();
    // GNU time's last line on stderr: the CLI's peak resident memory, in kB.
    const cli = spawnSync(
      '/usr/bin/time',
      ['-f', '%M', process.execPath, 'packages/tlog/dist/bin/verify-chain.js', file],
      {
        cwd: join(__dirname, '..'),
        maxBuffer: 1 << 24,
        encoding: 'utf8',
      },
    );
    const offline = seconds(cliStart);
    if (cli.status !== 0 || JSON.parse(cli.stdout).verified_count !== ENTRIES)
      throw new Error(`the export did not verify: ${cli.stderr}`);
    const cliPeakMb = Number(cli.stderr.trim().split('\n').pop()) / 1024;

    const fmt = (s: number) => `${s.toFixed(2)} s`;
    const mb = (b: number) => `${(b / 2 ** 20).toFixed(0)} MB`;
    const ratio = (s: number) => `${(s / floor).toFixed(2)}×`;
    const report = [
      `Node ${process.version}, ${availableParallelism()} CPUs (${cpus()[0]?.model ?? 'unknown'}), ${new Date().toISOString().slice(0, 10)}, ` +
        `${ENTRIES.toLocaleString('en-US')} entries of ${(bytes / ENTRIES).toFixed(0)} bytes (checksum ${sink % 10}):`,
      '',
      '| what | time | / floor | memory |',
      '|---|---|---|---|',
      `| SHA-256 alone over the entries' bytes, one core (the floor) | ${fmt(floor)} | 1.00× | |`,
      `| endpoint: \`verifyStoredLog\` over PostgreSQL | ${fmt(endpoint)} | ${ratio(endpoint)} | RSS grew ${mb(endpointPeak - rssBefore)} |`,
      `| offline: \`verify-chain\` on the export (${(bytes / 2 ** 20).toFixed(0)} MB), its start-up included | ${fmt(offline)} | ${ratio(offline)} | peak RSS ${cliPeakMb.toFixed(0)} MB |`,
    ].join('\n');
    console.log(report);
    if (ENTRIES === 1_000_000) await replaceSection('chain-verification', report);
  } finally {
    await database.drop();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
