/**
 * The offline verifier beside its floor: `verify-chain` (the package's built bin, in a process of its
 * own, start-up included) on an export of recorded cash sales, against one core running SHA-256
 * over the very bytes the entries' hashes are taken over, in the same run. Needs only the package:
 * the entries are made here (sale-entries.ts), no service and no database.
 *
 * Run, after the package is built (`npm run build` in the checkout, or `npm run build` here):
 * node -r ts-node/register/transpile-only packages/tlog/bench/verify-chain.bench.ts [entries, default 1000000]
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chainWithFloor } from './sale-entries';

const { exportLine } = require('..') as typeof import('../src');

const ENTRIES = Number(process.argv[2] ?? 1_000_000);
const seconds = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e9;

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'crcs-tlog-bench-'));
  try {
    const file = join(dir, 'export.ndjson');
    const out = createWriteStream(file);
    const {
      seconds: floor,
      bytes,
      checksum,
    } = await chainWithFloor(ENTRIES, async (chunk) => {
      if (!out.write(chunk.map((e) => exportLine(e.bytes, e.hash)).join(''))) await once(out, 'drain');
    });
    out.end();
    await once(out, 'finish');

    const start = process.hrtime.bigint();
    // GNU time's last line on stderr: the verifier's peak resident memory, in kB.
    const run = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, 'dist/bin/verify-chain.js', file], {
      cwd: join(__dirname, '..'),
      maxBuffer: 1 << 24,
      encoding: 'utf8',
    });
    const offline = seconds(start);
    if (run.status !== 0 || (JSON.parse(run.stdout) as { verified_count: number }).verified_count !== ENTRIES)
      throw new Error(`the export did not verify: ${run.stderr}`);
    const peakMb = Number(run.stderr.trim().split('\n').pop()) / 1024;

    console.log(
      [
        `Node ${process.version}, ${availableParallelism()} CPUs (${cpus()[0]?.model ?? 'unknown'}), ${new Date().toISOString().slice(0, 10)}, ` +
          `${ENTRIES.toLocaleString('en-US')} entries of ${(bytes / ENTRIES).toFixed(0)} bytes (checksum ${checksum % 10}):`,
        '',
        '| what | time | / floor | memory |',
        '|---|---|---|---|',
        `| SHA-256 alone over the entries' bytes, one core (the floor) | ${floor.toFixed(2)} s | 1.00× | |`,
        `| \`verify-chain\` on the export (${(bytes / 2 ** 20).toFixed(0)} MB), its start-up included | ${offline.toFixed(2)} s | ${(offline / floor).toFixed(2)}× | peak RSS ${peakMb.toFixed(0)} MB |`,
      ].join('\n'),
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
