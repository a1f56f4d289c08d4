/**
 * A 1,000,000-row POST /export while sales are recorded (POST /transaction at 8 connections), with
 * the export read from a streaming standby (READ_DATABASE_URL) against the same run with it read
 * from the primary: the sales' throughput and p99 during the export, each against the same sales
 * with no export in the same service a moment before. Writes the table into docs/benchmarks.md
 * between the bench:replica-export markers.
 *
 * The standby is a real one of the DATABASE_URL server, made as the tests make theirs
 * (test/support/standby.ts: pg_basebackup -R with a slot, another port and folder, on this
 * machine), so that server must take replication connections from 127.0.0.1 (README, "Tests").
 * It streams through both runs; only where the export reads differs. The rows are copied in bulk
 * (bench/support/export-rows.ts), over the 20 merchants the sales are recorded for.
 *
 * Run: npm run bench:replica. BENCH_EXPORT_ROWS (default 1000000) sets the number of rows,
 * BENCH_SECONDS (default 30) the length of the sales alone.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceProcess } from '../test/support/service-process';
import { Standby } from '../test/support/standby';
import { createTestDatabase, type TestDatabase } from '../test/support/test-database';
import { makeExportRows, readExport } from './support/export-rows';
import { replaceSection } from './support/report';
import { benchSales, type BenchSale } from './support/sales';
import { benchMerchantIds, loadSales, onboardMerchants } from './support/service-load';

const ROWS = Number(process.env.BENCH_EXPORT_ROWS ?? 1_000_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const WARM_UP_SECONDS = 5;
const CONNECTIONS = 8;
const MERCHANTS = 20;
const EXPORT_MODE = 'standard';
const ADMIN_KEY = `bench-admin-${randomBytes(12).toString('hex')}`;
/** The copied rows end a day before the run; the templates and the measured sales, made during it, are left out. */
const EXPORT_UNTIL = new Date(Date.now() - 3_600_000).toISOString();
process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';
/** The 1-minute load average as the run starts: the machine is shared, and the figures move with it. */
const LOAD_AT_START = loadavg()[0];

interface Sales {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  sent: number;
  failed: number;
}

interface Row {
  target: string;
  alone: Sales;
  duringExport: Sales;
  exportSeconds: number;
}

/** One service, on the replica or not: warm-up, the sales alone, then the sales while an admin exports every merchant. */
async function measure(
  target: string,
  database: TestDatabase,
  env: Record<string, string>,
  sales: BenchSale[],
  keys: string[],
  onReplica: boolean,
): Promise<Row> {
  const service = await ServiceProcess.start({
    entry: 'built',
    env: {
      DATABASE_URL: database.url,
      ADMIN_API_KEY: ADMIN_KEY,
      LOG_LEVEL: 'info',
      RATE_LIMIT_SANDBOX: '1000000000',
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      REDIS_KEY_PREFIX: `bench-${randomBytes(4).toString('hex')}:`,
      ...env,
    },
  });
  try {
    await loadSales(service.port, '/api/v1/transaction', keys, sales, CONNECTIONS, WARM_UP_SECONDS);
    const alone = summary(await loadSales(service.port, '/api/v1/transaction', keys, sales, CONNECTIONS, SECONDS));
    console.log(JSON.stringify({ target, alone }));
    const exported = readExport(service.baseUrl, ADMIN_KEY, { export_mode: EXPORT_MODE, end_date: EXPORT_UNTIL });
    const duringExport = summary(
      await loadSales(service.port, '/api/v1/transaction', keys, sales, CONNECTIONS, exported),
    );
    const { lines, seconds, dataAsOf } = await exported;
    console.log(JSON.stringify({ target, duringExport, exportSeconds: seconds, dataAsOf }));
    if (lines - 1 !== ROWS) throw new Error(`${target}: the export sent ${lines - 1} rows, not ${ROWS}`);
    if ((dataAsOf !== null) !== onReplica)
      throw new Error(
        `${target}: the export was read from the ${dataAsOf ? 'replica' : 'primary'} (X-Data-As-Of ${dataAsOf})`,
      );
    for (const [phase, run] of Object.entries({ alone, duringExport })) {
      if (run.failed > 0)
        throw new Error(`${target}, ${phase}: ${run.failed} sales failed\n${service.output.slice(-3000)}`);
    }
    return { target, alone, duringExport, exportSeconds: seconds };
  } finally {
    await service.stop();
  }
}

function summary(result: {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}): Sales {
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    sent: result.requests.total,
    failed: result.non2xx + result.errors + result.timeouts,
  };
}

function table(rows: [Row, Row]): string {
  const fmt = (n: number, digits = 0) =>
    n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
  const pct = (part: number, whole: number) => `${fmt((100 * part) / whole)}%`;
  const [primary, replica] = rows;
  return [
    `Run ${new Date().toISOString().slice(0, 16)}Z: node ${process.version}, ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown'}), ` +
      `the primary, the standby, the service and the load generator on the same machine, load average ${fmt(LOAD_AT_START, 1)} at the start. ` +
      `${fmt(ROWS)} rows exported, ${EXPORT_MODE} mode; sales at ${CONNECTIONS} connections, alone for ${SECONDS} s after a ${WARM_UP_SECONDS} s warm-up, then for as long as the export ran.`,
    '',
    '| export read from | sales/s alone | sales/s during the export | vs alone | p99 ms alone | p99 ms during the export | export s | export rows/s |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (row) =>
        `| ${row.target} | ${fmt(row.alone.requestsPerSecond)} | ${fmt(row.duringExport.requestsPerSecond)} | ${pct(row.duringExport.requestsPerSecond, row.alone.requestsPerSecond)} | ` +
        `${fmt(row.alone.p99)} | ${fmt(row.duringExport.p99)} | ${fmt(row.exportSeconds, 1)} | ${fmt(ROWS / row.exportSeconds)} |`,
    ),
    '',
    `During the export, on the standby against on the primary: sales/s ${pct(replica.duringExport.requestsPerSecond, primary.duringExport.requestsPerSecond)}, ` +
      `p99 ${pct(replica.duringExport.p99, primary.duringExport.p99)}.`,
  ].join('\n');
}

async function main(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'crcs-bench-replica-'));
  // Searchable by the standby's OS account (postgres) when the bench runs as root.
  chmodSync(folder, 0o711);
  let standby: Standby | undefined;
  const database = await createTestDatabase('postgres');
  try {
    standby = await Standby.create(process.env.DATABASE_URL!, join(folder, 'standby'));
    const sales = benchSales(20_000, benchMerchantIds(MERCHANTS));
    // The rows and the keys once, through a service on the primary alone; both measured services share them.
    const setup = await ServiceProcess.start({
      entry: 'built',
      env: {
        DATABASE_URL: database.url,
        ADMIN_API_KEY: ADMIN_KEY,
        REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      },
    });
    let keys: string[];
    try {
      keys = await onboardMerchants(setup.baseUrl, ADMIN_KEY, benchMerchantIds(MERCHANTS));
      const db = await database.open();
      await makeExportRows(setup.baseUrl, ADMIN_KEY, db, ROWS, MERCHANTS);
    } finally {
      await setup.stop();
    }
    await standby.replayed();
    const primary = await measure('the primary', database, {}, sales, keys, false);
    await standby.replayed();
    const name = new URL(database.url).pathname.slice(1);
    const replica = await measure(
      'the standby (READ_DATABASE_URL)',
      database,
      { READ_DATABASE_URL: standby.url(name) },
      sales,
      keys,
      true,
    );
    const text = table([primary, replica]);
    console.log(text);
    await replaceSection('replica-export', text);
  } finally {
    await database.drop();
    await standby?.remove();
    rmSync(folder, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
