/**
 * The embedded default (no DATABASE_URL: the database lives under DATA_DIR) against the same built
 * service on the system PostgreSQL (DATABASE_URL): time to the first healthy /api/v1/health on a
 * fresh data folder and on later starts, the memory of the service together with every process
 * it started (the embedded database's), idle and under load, and POST /transaction throughput.
 * Writes the table into docs/benchmarks.md between the bench:embedded-database markers.
 *
 * Run: npm run build && node -r ts-node/register/transpile-only bench/embedded-database.bench.ts
 * BENCH_SECONDS (default 20) sets the load's length; DATABASE_URL (default the local server) and
 * REDIS_URL as for bench/transactions.bench.ts.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceProcess } from '../test/support/service-process';
import { createTestDatabase } from '../test/support/test-database';
import { replaceSection } from './support/report';
import { benchSales } from './support/sales';
import { benchMerchantIds, loadSales, onboardMerchants } from './support/service-load';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const CONNECTIONS = 64;
const LATER_STARTS = 3;
/** A second, shorter load during which the memory is sampled. */
const MEMORY_SECONDS = 10;
const MERCHANTS = 20;
const ADMIN_KEY = `bench-admin-${randomBytes(12).toString('hex')}`;
process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
const serviceEnv = {
  ADMIN_API_KEY: ADMIN_KEY,
  LOG_LEVEL: 'warn',
  RATE_LIMIT_SANDBOX: '1000000000',
  REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
};

interface Storage {
  env: Record<string, string>;
  drop(): Promise<void>;
}

const TARGETS: { name: string; storage(): Promise<Storage> }[] = [
  {
    name: 'embedded default (DATA_DIR)',
    async storage() {
      const dataDir = await mkdtemp(join(tmpdir(), 'crcs-bench-'));
      return { env: { DATA_DIR: dataDir }, drop: () => rm(dataDir, { recursive: true, force: true }) };
    },
  },
  {
    name: 'system PostgreSQL (DATABASE_URL)',
    async storage() {
      const db = await createTestDatabase('postgres');
      return { env: { DATABASE_URL: db.url }, drop: () => db.drop() };
    },
  },
];

interface Memory {
  rssMb: number;
  pssMb: number;
  processes: number;
  /** PSS MB by part: the service, the server's backends (one per connection), each of its own processes. */
  parts: Record<string, number>;
}

/** A process of the tree by its title: PostgreSQL names its backends `postgres: <user> <database> [local] <state>`. */
function part(pid: number, rootPid: number): string {
  if (pid === rootPid) return 'service';
  try {
    const title = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
    if (title.includes('[local]')) return 'backends';
    return title.startsWith('postgres: ') ? title.slice('postgres: '.length).replace(/ \d+$/, '') : 'postmaster';
  } catch {
    return 'ended';
  }
}

/**
 * The service and all its descendants (an embedded server and its backends). RSS counts shared
 * buffers once per process that touched them, PSS shares them out: PSS is the fair total.
 */
function treeMemory(rootPid: number): Memory {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // The process ended while the table was read.
    }
  }
  const tree = [rootPid];
  for (let i = 0; i < tree.length; i++) for (const [pid, parent] of parents) if (parent === tree[i]) tree.push(pid);
  const kib = (pid: number, field: string) => {
    try {
      return Number(
        new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0,
      );
    } catch {
      return 0;
    }
  };
  const pss = new Map(tree.map((pid) => [pid, kib(pid, 'Pss') / 1024]));
  const parts: Record<string, number> = {};
  for (const [pid, mb] of pss) {
    const name = part(pid, rootPid);
    parts[name] = (parts[name] ?? 0) + mb;
  }
  return {
    rssMb: tree.reduce((sum, pid) => sum + kib(pid, 'Rss'), 0) / 1024,
    pssMb: [...pss.values()].reduce((sum, mb) => sum + mb, 0),
    processes: tree.length,
    parts,
  };
}

async function timedStart(env: Record<string, string>): Promise<{ service: ServiceProcess; ms: number }> {
  const started = performance.now();
  const service = await ServiceProcess.start({ entry: 'built', env: { ...serviceEnv, ...env } });
  return { service, ms: performance.now() - started };
}

async function measure(target: (typeof TARGETS)[number]) {
  const storage = await target.storage();
  try {
    const first = await timedStart(storage.env);
    await first.service.stop();
    const later: number[] = [];
    let service!: ServiceProcess;
    for (let i = 0; i < LATER_STARTS; i++) {
      const start = await timedStart(storage.env);
      later.push(start.ms);
      service = start.service;
      if (i < LATER_STARTS - 1) await service.stop();
    }
    try {
      const keys = await onboardMerchants(service.baseUrl, ADMIN_KEY, benchMerchantIds(MERCHANTS));
      const sales = benchSales(20_000, benchMerchantIds(MERCHANTS));
      const idle = treeMemory(service.child.pid!);
      // Throughput first, with nothing else in this process: reading the memory of a server's
      // twenty processes takes the load generator's CPU, and would cost the embedded target alone.
      const result = await loadSales(service.port, '/api/v1/transaction', keys, sales, CONNECTIONS, SECONDS);
      let peak = idle;
      const sampler = setInterval(() => {
        const now = treeMemory(service.child.pid!);
        if (now.pssMb > peak.pssMb) peak = now;
      }, 1000);
      await loadSales(service.port, '/api/v1/transaction', keys, sales, CONNECTIONS, MEMORY_SECONDS);
      clearInterval(sampler);
      const row = {
        target: target.name,
        firstStartMs: first.ms,
        laterStartsMs: later,
        idle,
        peak,
        requestsPerSecond: result.requests.average,
        p99: result.latency.p99,
        failed: result.non2xx + result.errors + result.timeouts,
      };
      console.log(JSON.stringify(row));
      return row;
    } finally {
      await service.stop();
    }
  } finally {
    await storage.drop();
  }
}

async function main(): Promise<void> {
  const rows = [];
  for (const target of TARGETS) rows.push(await measure(target));
  const postgres = rows[rows.length - 1].requestsPerSecond;
  const fmt = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 0 });
  const memory = (m: Memory) => `${fmt(m.pssMb)} (${fmt(m.rssMb)})`;
  const text = [
    `Run ${new Date().toISOString().slice(0, 16)}Z: node ${process.version}, ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown'}), ` +
      `${SECONDS} s of load at ${CONNECTIONS} connections, load generator in the same machine.`,
    '',
    '| target | first start ms | later starts ms | idle MB PSS (RSS) | under load MB PSS (RSS) | processes | req/s | p99 ms | vs PostgreSQL | failed |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (row) =>
        `| ${row.target} | ${fmt(row.firstStartMs)} | ${row.laterStartsMs.map(fmt).join(', ')} | ${memory(row.idle)} | ${memory(row.peak)} | ` +
        `${row.peak.processes} | ${fmt(row.requestsPerSecond)} | ${fmt(row.p99)} | ${fmt((100 * row.requestsPerSecond) / postgres)}% | ${fmt(row.failed)} |`,
    ),
    '',
    "At the peak under load, MB PSS by process (the server's backends together):",
    '',
    ...rows.map(
      (row) =>
        `- ${row.target}: ${Object.entries(row.peak.parts)
          .map(([name, mb]) => `${name} ${fmt(mb)}`)
          .join(', ')}`,
    ),
  ].join('\n');
  console.log(text);
  await replaceSection('embedded-database', text);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
