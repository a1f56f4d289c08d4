/**
 * POST /transaction through the whole production pipeline (key look-up, rate limit in Redis,
 * validation, resolution, scoring, hash chain, inline projections), with the built service as
 * `npm start` runs it, on PostgreSQL and on the embedded default, at 8 and 64 connections; and in the same run
 * the baseline, a bare Fastify route inserting one comparable row into the same PostgreSQL.
 * Writes the table into docs/benchmarks.md between the bench:transactions markers.
 *
 * Run: npm run bench (builds first). BENCH_SECONDS (default 20) sets each measurement's length;
 * BENCH_ONLY=<text> runs only the targets whose name contains it (the baseline always runs);
 * BENCH_CPU_PROF=<dir> has the service write a V8 CPU profile there when it stops.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceProcess } from '../test/support/service-process';
import { createTestDatabase, type TestDatabase } from '../test/support/test-database';
import { benchSales, type BenchSale } from './support/sales';
import { replaceSection } from './support/report';
import { benchMerchantIds, loadSales, onboardMerchants } from './support/service-load';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const WARM_UP_SECONDS = 5;
const CONNECTIONS = [8, 64] as const;
const MERCHANTS = 20;
const ADMIN_KEY = `bench-admin-${randomBytes(12).toString('hex')}`;
process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

interface Row {
  target: string;
  connections: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  sent: number;
  failed: number;
  peakRssMb: number;
}

interface Target {
  name: string;
  start(): Promise<{ service: ServiceProcess; path: string; keys: string[]; cleanUp(): Promise<void> }>;
}

const serviceEnv = {
  ADMIN_API_KEY: ADMIN_KEY,
  LOG_LEVEL: 'info',
  RATE_LIMIT_SANDBOX: '1000000000',
  REDIS_URL,
};
const nodeArgs = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];

const TARGETS: Target[] = [
  {
    name: 'baseline: bare Fastify + one INSERT (PostgreSQL)',
    async start() {
      const db = await createTestDatabase('postgres');
      const service = await ServiceProcess.start({ entry: { tsFile: 'bench/baseline-server.ts' }, env: { DATABASE_URL: db.url } });
      return { service, path: '/api/v1/baseline', keys: [''], cleanUp: () => db.drop() };
    },
  },
  {
    name: 'service on PostgreSQL',
    async start() {
      const db = await createTestDatabase('postgres');
      return startService({ DATABASE_URL: db.url, REDIS_KEY_PREFIX: `bench-${randomBytes(4).toString('hex')}:` }, db);
    },
  },
  {
    name: 'service on the embedded database',
    async start() {
      const dataDir = await mkdtemp(join(tmpdir(), 'crcs-bench-'));
      return startService({ DATA_DIR: dataDir, REDIS_KEY_PREFIX: `bench-${randomBytes(4).toString('hex')}:` }, {
        drop: () => rm(dataDir, { recursive: true, force: true }),
      });
    },
  },
];

async function startService(env: Record<string, string>, db: Pick<TestDatabase, 'drop'>) {
  const service = await ServiceProcess.start({ entry: 'built', nodeArgs, env: { ...serviceEnv, ...env } });
  const keys = await onboardMerchants(service.baseUrl, ADMIN_KEY, benchMerchantIds(MERCHANTS));
  return { service, path: '/api/v1/transaction', keys, cleanUp: () => db.drop() };
}

async function measure(target: Target, sales: BenchSale[]): Promise<Row[]> {
  const { service, path, keys, cleanUp } = await target.start();
  try {
    await loadSales(service.port, path, keys, sales, CONNECTIONS[0], WARM_UP_SECONDS);
    const rows: Row[] = [];
    for (const connections of CONNECTIONS) {
      const result = await loadSales(service.port, path, keys, sales, connections, SECONDS);
      const failed = result.non2xx + result.errors + result.timeouts;
      rows.push({
        target: target.name,
        connections,
        requestsPerSecond: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        sent: result.requests.total,
        failed,
        peakRssMb: service.peakRssBytes() / 2 ** 20,
      });
      console.log(JSON.stringify(rows.at(-1)));
      if (failed > 0) console.error(`${target.name}: ${failed} requests failed\n${service.output.slice(-3000)}`);
    }
    return rows;
  } finally {
    await service.stop();
    await cleanUp();
  }
}

function table(rows: Row[]): string {
  const baseline = new Map(rows.filter((row) => row.target.startsWith('baseline')).map((row) => [row.connections, row.requestsPerSecond]));
  const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
  const lines = [
    `Run ${new Date().toISOString().slice(0, 16)}Z: node ${process.version}, ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown'}), ` +
      `${SECONDS} s per row after a ${WARM_UP_SECONDS} s warm-up, load generator in the same machine.`,
    '',
    '| target | connections | req/s | p50 ms | p99 ms | vs baseline | requests | failed | peak RSS MB |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (row) =>
        `| ${row.target} | ${row.connections} | ${fmt(row.requestsPerSecond)} | ${fmt(row.p50)} | ${fmt(row.p99)} | ` +
        `${fmt((100 * row.requestsPerSecond) / baseline.get(row.connections)!)}% | ${fmt(row.sent)} | ${fmt(row.failed)} | ${fmt(row.peakRssMb)} |`,
    ),
  ];
  return lines.join('\n');
}

async function main(): Promise<void> {
  const sales = benchSales(20_000, benchMerchantIds(MERCHANTS));
  const rows: Row[] = [];
  const only = process.env.BENCH_ONLY;
  for (const target of TARGETS.filter((t, i) => i === 0 || !only || t.name.includes(only))) rows.push(...(await measure(target, sales)));
  const text = table(rows);
  console.log(text);
  await replaceSection('transactions', text);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
