/**
 * POST /transaction through the whole production pipeline (key look-up, rate limit in Redis,
 * validation, resolution, scoring, hash chain, inline projections), with the built service as
 * `npm start` runs it, on PostgreSQL and on the embedded default, at 8 and 64 connections; and in the same run
 * the baseline, a bare Fastify route inserting one comparable row into the same PostgreSQL, and
 * the peer, a Fastify route appending one event per sale to Emmett's PostgreSQL event store
 * (bench/peer-server.ts). Every target is started first and warmed up; then, for each connection
 * count, each round loads them one after another, the order turning each round, so that the
 * figures side by side met about the same load from the rest of the machine. A row is a target's
 * median over the rounds. Each measurement also takes, for the service targets, the read models'
 * lag (p99 of /health's, sampled every 100 ms during it), and for every target the CPU it cost per
 * sale: its own process's and PostgreSQL's (see `cpuMs`), and PostgreSQL's part apart. Writes the
 * table into docs/benchmarks.md between the bench:transactions markers.
 *
 * Run: npm run bench (builds first). BENCH_SECONDS (default 20) sets each measurement's length,
 * BENCH_ROUNDS (default 1) the rounds; BENCH_ONLY=<text> runs only the targets whose name
 * contains it (the baseline and the peer always run); BENCH_BEFORE=<checkout> adds the built
 * service of another checkout on PostgreSQL, named by its commit (a change's before and after, paired);
 * BENCH_CPU_PROF=<dir> has the service write a V8 CPU profile there when it stops.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ServiceProcess } from '../test/support/service-process';
import { createTestDatabase, type TestDatabase } from '../test/support/test-database';
import { benchSales, type BenchSale } from './support/sales';
import { replaceSection } from './support/report';
import { benchMerchantIds, loadSales, onboardMerchants } from './support/service-load';
import { median } from './support/median';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
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
  /** The p99 of the read models' lag sampled during the measurement; undefined for a target without read models. */
  lagP99Ms: number | undefined;
  /** CPU ms per sale, of the target's process and of the PostgreSQL processes serving it, together. */
  cpuMsPerSale: number;
  /** The PostgreSQL processes' part of cpuMsPerSale. */
  postgresCpuMsPerSale: number;
}

/** A row of the table: a target's median round, and its ratios to the baseline and the peer, each the median of the rounds' own. */
interface Summary extends Row {
  vsBaseline: number;
  vsPeer: number;
  cpuVsPeer: number;
}

interface Target {
  name: string;
  start(): Promise<Running>;
}

interface Running {
  service: ServiceProcess;
  path: string;
  keys: string[];
  /** The PostgreSQL processes that serve it now (see `cpuMs`). */
  postgresPids: () => number[];
  /** Whether it answers /health with its read models' lag (the service does, the baseline and the peer have none). */
  readModels: boolean;
  cleanUp(): Promise<void>;
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
      const service = await ServiceProcess.start({
        entry: { tsFile: 'bench/baseline-server.ts' },
        env: { DATABASE_URL: db.url },
      });
      return {
        service,
        path: '/api/v1/baseline',
        keys: [''],
        postgresPids: () => backendsOf(db),
        readModels: false,
        cleanUp: () => db.drop(),
      };
    },
  },
  {
    name: 'peer: Fastify + Emmett appendToStream (PostgreSQL)',
    async start() {
      const db = await createTestDatabase('postgres');
      const service = await ServiceProcess.start({
        entry: { tsFile: 'bench/peer-server.ts' },
        env: { DATABASE_URL: db.url },
      });
      return {
        service,
        path: '/api/v1/peer',
        keys: [''],
        postgresPids: () => backendsOf(db),
        readModels: false,
        cleanUp: () => db.drop(),
      };
    },
  },
  ...(process.env.BENCH_BEFORE
    ? [
        {
          name: `service on PostgreSQL, before (${execFileSync('git', ['-C', process.env.BENCH_BEFORE, 'rev-parse', '--short', 'HEAD']).toString().trim()})`,
          async start() {
            const db = await createTestDatabase('postgres');
            return startService(
              { DATABASE_URL: db.url, REDIS_KEY_PREFIX: `bench-${randomBytes(4).toString('hex')}:` },
              db,
              () => backendsOf(db),
              { builtIn: process.env.BENCH_BEFORE! },
            );
          },
        },
      ]
    : []),
  {
    name: 'service on PostgreSQL',
    async start() {
      const db = await createTestDatabase('postgres');
      return startService(
        { DATABASE_URL: db.url, REDIS_KEY_PREFIX: `bench-${randomBytes(4).toString('hex')}:` },
        db,
        () => backendsOf(db),
      );
    },
  },
  {
    name: 'service on the embedded database',
    async start() {
      const dataDir = await mkdtemp(join(tmpdir(), 'crcs-bench-'));
      return startService(
        { DATA_DIR: dataDir, REDIS_KEY_PREFIX: `bench-${randomBytes(4).toString('hex')}:` },
        { drop: () => rm(dataDir, { recursive: true, force: true }) },
        embeddedServer,
      );
    },
  },
];

async function startService(
  env: Record<string, string>,
  db: Pick<TestDatabase, 'drop'>,
  postgresPids: (service: ServiceProcess) => number[],
  entry: 'built' | { builtIn: string } = 'built',
): Promise<Running> {
  const service = await ServiceProcess.start({ entry, nodeArgs, env: { ...serviceEnv, ...env } });
  const keys = await onboardMerchants(service.baseUrl, ADMIN_KEY, benchMerchantIds(MERCHANTS));
  return {
    service,
    path: '/api/v1/transaction',
    keys,
    postgresPids: () => postgresPids(service),
    readModels: true,
    cleanUp: () => db.drop(),
  };
}

/** The CPU a process has spent so far, user and system, in ms (clock ticks of 10 ms); 0 once it has ended. */
function processCpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

const childrenOf = (pid: number): number[] => {
  try {
    return execFileSync('pgrep', ['-P', String(pid)])
      .toString()
      .trim()
      .split('\n')
      .map(Number);
  } catch {
    return []; // pgrep exits 1 when there are none
  }
};

/**
 * The backends of a database of the shared PostgreSQL server: its postmaster's children whose
 * process title names the database. The server's own processes (WAL writer, checkpointer) serve
 * every database on it, the other targets' too, and are left out.
 */
function backendsOf(db: TestDatabase): number[] {
  const name = new URL(db.url).pathname.slice(1);
  const postmaster = Number(execFileSync('pgrep', ['-o', '-x', 'postgres']).toString().trim());
  return childrenOf(postmaster).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(` ${name} `);
    } catch {
      return false;
    }
  });
}

/** The embedded server the service started (its child `postgres`) and every process under it: the whole server is the service's. */
function embeddedServer(service: ServiceProcess): number[] {
  const postmaster = childrenOf(service.child.pid!).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
    } catch {
      return false;
    }
  });
  return postmaster.flatMap((pid) => [pid, ...childrenOf(pid)]);
}

/**
 * The CPU ms a target spends until `done` settles: its own process's and its PostgreSQL processes'
 * (`postgresPids`), read from /proc (Linux) at the start and at the end. A backend that ends in
 * between takes its time with it; the service's pool keeps its connections under load.
 */
async function cpuMs(
  { service, postgresPids }: Running,
  done: Promise<unknown>,
): Promise<{ own: number; postgres: number }> {
  const pid = service.child.pid!;
  const before = new Map([pid, ...postgresPids()].map((p) => [p, processCpuMs(p)]));
  await done.catch(() => undefined);
  const spent = (p: number) => processCpuMs(p) - (before.get(p) ?? 0);
  return { own: spent(pid), postgres: postgresPids().reduce((sum, p) => sum + spent(p), 0) };
}

/**
 * The read models' lag while `done` is pending: every 100 ms, the largest `lag_ms` of /health's
 * `projections` (how long the oldest entry a read model has not applied has been in the log), so
 * a sample is the worst read model's lag at that moment. Returns their p99. /health costs a statement
 * per sample, ten a second, beside the hundreds of sales.
 */
async function lagP99(service: ServiceProcess, done: Promise<unknown>): Promise<number | undefined> {
  let finished = false;
  void done.finally(() => (finished = true)).catch(() => undefined);
  const samples: number[] = [];
  while (!finished) {
    const started = Date.now();
    const health = (await (await fetch(`${service.baseUrl}/health`)).json()) as { projections?: { lag_ms: number }[] };
    // A build from before /health reported its read models' lag (BENCH_BEFORE): no figure rather than a wrong one.
    if (!health.projections) return undefined;
    samples.push(Math.max(0, ...health.projections.map((p) => p.lag_ms)));
    await sleep(Math.max(0, 100 - (Date.now() - started)));
  }
  const sorted = samples.sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(sorted.length * 0.99) - 1)] ?? 0;
}

async function measure(name: string, running: Running, sales: BenchSale[], connections: number): Promise<Row> {
  const { service, path, keys } = running;
  const loading = loadSales(service.port, path, keys, sales, connections, SECONDS);
  const [result, cpu, lag] = await Promise.all([
    loading,
    cpuMs(running, loading),
    running.readModels ? lagP99(service, loading) : undefined,
  ]);
  const failed = result.non2xx + result.errors + result.timeouts;
  const row = {
    target: name,
    connections,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    sent: result.requests.total,
    failed,
    peakRssMb: service.peakRssBytes() / 2 ** 20,
    lagP99Ms: lag,
    cpuMsPerSale: (cpu.own + cpu.postgres) / result.requests.total,
    postgresCpuMsPerSale: cpu.postgres / result.requests.total,
  };
  console.log(JSON.stringify({ ...row, load: loadavg()[0] }));
  if (failed > 0) console.error(`${name}: ${failed} requests failed\n${service.output.slice(-3000)}`);
  return row;
}

/**
 * `rounds[target][round]` at one connection count: each target's median round, and its ratio to the
 * baseline (target 0) and to the peer (target 1) taken round by round, where they met the same load.
 */
function summarize(rounds: Row[][]): Summary[] {
  const ratio = (i: number, to: number, value: (row: Row) => number) =>
    median(
      rounds[i].map((row, round) => value(row) / value(rounds[to][round])),
      (x) => x,
    );
  const rate = (row: Row) => row.requestsPerSecond;
  return rounds.map((rows, i) => ({
    ...median(rows, rate),
    vsBaseline: ratio(i, 0, rate),
    vsPeer: ratio(i, 1, rate),
    cpuVsPeer: ratio(i, 1, (row) => row.cpuMsPerSale),
  }));
}

function table(rows: Summary[], loads: number[]): string {
  const fmt = (n: number, digits = 0) =>
    n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
  const lines = [
    `Run ${new Date().toISOString().slice(0, 16)}Z: node ${process.version}, ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown'}), ` +
      `${SECONDS} s per measurement after a ${WARM_UP_SECONDS} s warm-up, ` +
      `${ROUNDS > 1 ? `${ROUNDS} rounds (per row the median round, and the median of the rounds' ratios)` : 'one round'}, ` +
      `load generator in the same machine, load average ${loads.map((load) => fmt(load, 1)).join(' at the start, ')} at the end.`,
    '',
    '| target | connections | req/s | p50 ms | p99 ms | vs baseline | vs peer | read-model lag p99 ms | CPU ms per sale | PostgreSQL part | CPU vs peer | requests | failed | peak RSS MB |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (row) =>
        `| ${row.target} | ${row.connections} | ${fmt(row.requestsPerSecond)} | ${fmt(row.p50)} | ${fmt(row.p99)} | ` +
        `${fmt(100 * row.vsBaseline)}% | ${fmt(row.vsPeer, 2)}× | ${row.lagP99Ms === undefined ? '–' : fmt(row.lagP99Ms)} | ` +
        `${fmt(row.cpuMsPerSale, 2)} | ${fmt(row.postgresCpuMsPerSale, 2)} | ${fmt(row.cpuVsPeer, 2)}× | ` +
        `${fmt(row.sent)} | ${fmt(row.failed)} | ${fmt(row.peakRssMb)} |`,
    ),
  ];
  return lines.join('\n');
}

async function main(): Promise<void> {
  const loads = [loadavg()[0]];
  const sales = benchSales(20_000, benchMerchantIds(MERCHANTS));
  const only = process.env.BENCH_ONLY;
  const targets = TARGETS.filter((t, i) => i < 2 || !only || t.name.includes(only));
  const running: Running[] = [];
  const rows: Summary[] = [];
  try {
    for (const target of targets) {
      running.push(await target.start());
      await loadSales(
        running.at(-1)!.service.port,
        running.at(-1)!.path,
        running.at(-1)!.keys,
        sales,
        CONNECTIONS[0],
        WARM_UP_SECONDS,
      );
    }
    for (const connections of CONNECTIONS) {
      const rounds: Row[][] = targets.map(() => []);
      for (let round = 0; round < ROUNDS; round++) {
        for (let k = 0; k < targets.length; k++) {
          const i = (k + round) % targets.length;
          rounds[i].push(await measure(targets[i].name, running[i], sales, connections));
        }
      }
      rows.push(...summarize(rounds));
    }
  } finally {
    for (const target of running) {
      await target.service.stop();
      await target.cleanUp();
    }
  }
  loads.push(loadavg()[0]);
  rows.sort((a, b) => targets.findIndex((t) => t.name === a.target) - targets.findIndex((t) => t.name === b.target));
  const text = table(rows, loads);
  console.log(text);
  await replaceSection('transactions', text);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
