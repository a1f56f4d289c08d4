/**
 * POST /export of 1,000,000 transactions from the built service on PostgreSQL, in each mode: rows
 * per second and the service's peak memory; and in the same run the baseline, the same keyset
 * select of the same rows through the same driver (JSON parsed) with no CSV and no HTTP.
 * Writes the table into docs/benchmarks.md between the bench:export markers.
 *
 * The rows are not made through POST /transaction, which would take hours at the rates in
 * docs/benchmarks.md: bench/support/export-rows.ts copies six real records in bulk.
 *
 * Run: npm run build && node -r ts-node/register/transpile-only bench/export.bench.ts
 * BENCH_EXPORT_ROWS (default 1000000) sets the number of rows; BENCH_EXPORT_MODES (comma-separated,
 * default all) the modes exported. BENCH_CPU_PROF=<dir> runs the service with --cpu-prof into
 * that folder, to see where its time goes (bench/support/profile-summary.ts reads it). The table
 * goes into docs/benchmarks.md only from a run of every mode without the profiler, which slows the
 * service; the others print it.
 */
import { randomBytes } from 'node:crypto';
import { availableParallelism, cpus, loadavg } from 'node:os';
import type { Database } from '../src/platform/event-store/sql';
import { exportRows } from '../src/transactions/read-model/transaction-batches';
import { EXPORT_MODES, type ExportMode } from '../src/export/export-transactions/export-columns';
import { ServiceProcess } from '../test/support/service-process';
import { createTestDatabase } from '../test/support/test-database';
import { makeExportRows, readExport } from './support/export-rows';
import { replaceSection } from './support/report';

const ROWS = Number(process.env.BENCH_EXPORT_ROWS ?? 1_000_000);
const MODES = (process.env.BENCH_EXPORT_MODES?.split(',') ?? EXPORT_MODES) as ExportMode[];
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF;
const MERCHANTS = 20;
const ADMIN_KEY = `bench-admin-${randomBytes(12).toString('hex')}`;
process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';

interface Result {
  target: string;
  rows: number;
  seconds: number;
  megabytes: number | null;
  /** The service's peak RSS once half the rows had arrived, and at the end: equal when memory does not grow with the rows. */
  halfwayRssMb: number | null;
  peakRssMb: number | null;
}

const MB = 2 ** 20;
/** The 1-minute load average as the run starts: the machine is shared, and the figures move with it. */
const LOAD_AT_START = loadavg()[0];

/** The floor: the export's own keyset reader over the same rows, with nothing done to them. */
async function baseline(db: Database): Promise<Result> {
  const started = process.hrtime.bigint();
  let rows = 0;
  for await (const batch of exportRows(db, {})) rows += batch.length;
  return {
    target: 'baseline: keyset select of the same rows (pg, JSON parsed), no CSV, no HTTP',
    rows,
    seconds: elapsed(started),
    megabytes: null,
    halfwayRssMb: null,
    peakRssMb: null,
  };
}

/** One export of every merchant; the service's peak RSS read once half the rows have arrived. */
async function exportOnce(service: ServiceProcess, mode: ExportMode): Promise<Result> {
  let halfwayRssMb = 0;
  const read = await readExport(service.baseUrl, ADMIN_KEY, { export_mode: mode }, (lines) => {
    if (halfwayRssMb === 0 && lines > ROWS / 2) halfwayRssMb = service.peakRssBytes() / MB;
  });
  return {
    target: `POST /export, ${mode}`,
    rows: read.lines - 1, // less the header's line
    seconds: read.seconds,
    megabytes: read.bytes / MB,
    halfwayRssMb,
    peakRssMb: service.peakRssBytes() / MB,
  };
}

const elapsed = (since: bigint) => Number(process.hrtime.bigint() - since) / 1e9;

function table(results: Result[], rssBeforeMb: number): string {
  const fmt = (n: number, digits = 0) =>
    n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
  const floor = results[0].rows / results[0].seconds;
  return [
    `Run ${new Date().toISOString().slice(0, 16)}Z: node ${process.version}, ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown'}), ` +
      `PostgreSQL and the client on the same machine, load average ${fmt(LOAD_AT_START, 1)} at the start. ${fmt(ROWS)} rows (plus the 6 templates); ` +
      `service peak RSS before the first export ${fmt(rssBeforeMb)} MB (start, seeds, the API calls that made the templates).`,
    '',
    '| target | rows | s | rows/s | vs baseline | MB sent | service peak RSS MB, half the rows sent | at the end |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...results.map((r) => {
      const rate = r.rows / r.seconds;
      const optional = (n: number | null) => (n === null ? '–' : fmt(n));
      return `| ${r.target} | ${fmt(r.rows)} | ${fmt(r.seconds, 1)} | ${fmt(rate)} | ${fmt((100 * rate) / floor)}% | ${optional(r.megabytes)} | ${optional(r.halfwayRssMb)} | ${optional(r.peakRssMb)} |`;
    }),
  ].join('\n');
}

async function main(): Promise<void> {
  const database = await createTestDatabase('postgres');
  const service = await ServiceProcess.start({
    entry: 'built',
    nodeArgs: CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF_DIR}`] : [],
    env: {
      DATABASE_URL: database.url,
      ADMIN_API_KEY: ADMIN_KEY,
      LOG_LEVEL: 'info',
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      REDIS_KEY_PREFIX: `bench-${randomBytes(4).toString('hex')}:`,
    },
  });
  const db = await database.open();
  try {
    await makeExportRows(service.baseUrl, ADMIN_KEY, db, ROWS, MERCHANTS);
    const rssBeforeMb = service.peakRssBytes() / MB;
    const results = [await baseline(db)];
    console.log(JSON.stringify(results.at(-1)));
    for (const mode of MODES) {
      results.push(await exportOnce(service, mode));
      console.log(JSON.stringify(results.at(-1)));
    }
    for (const r of results)
      if (r.rows !== results[0].rows)
        throw new Error(`${r.target}: ${r.rows} rows, the baseline read ${results[0].rows}`);
    const text = table(results, rssBeforeMb);
    console.log(text);
    if (!CPU_PROF_DIR && MODES.length === EXPORT_MODES.length) await replaceSection('export', text);
  } finally {
    await service.stop();
    await database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
