/**
 * Where the CPU of one POST /transaction goes: the built service, and the transaction bench's peer
 * (and with BENCH_BEFORE=<checkout>, another checkout's built service), each in turn on a fresh
 * PostgreSQL database under a fixed load, and the CPU time each process spent per request while it ran, read from
 * /proc (Linux): the service, PostgreSQL (every process of the server: run it on an idle machine),
 * Redis and the load generator itself. On a 2-core machine their sum bounds the rate: 2,000 ms / sum = req/s.
 *
 * Run: npm run build && node -r ts-node/register/transpile-only bench/cpu-per-sale.bench.ts
 * BENCH_SECONDS (default 20), BENCH_CONNECTIONS (default 8); DATABASE_URL and REDIS_URL as for
 * bench/transactions.bench.ts. BENCH_ROUNDS (default 1): each round measures every target, in an
 * order that turns each round, and the last lines give each target's medians (the lower middle for
 * an even count) and, with BENCH_BEFORE, the change's ratio round by round: on a noisy machine one
 * round of each moves by a third. BENCH_NODE_ARGS: flags for node running this checkout's service only (e.g.
 * `--max-semi-space-size=32`), to pair a runtime flag with the build without it. Prints its
 * figures; docs/benchmarks.md quotes them.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ServiceProcess } from '../test/support/service-process';
import { createTestDatabase, type TestDatabase } from '../test/support/test-database';
import { median } from './support/median';
import { benchSales } from './support/sales';
import { benchMerchantIds, loadSales, onboardMerchants } from './support/service-load';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
const NODE_ARGS = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
const MERCHANTS = 20;
const ADMIN_KEY = `bench-admin-${randomBytes(12).toString('hex')}`;
process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A process's CPU so far in ms (clock ticks of 10 ms): user, system, and its reaped children's. */
function cpuMs(pid: number): { user: number; system: number; children: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return {
    user: Number(fields[11]) * 10,
    system: Number(fields[12]) * 10,
    children: (Number(fields[13]) + Number(fields[14])) * 10,
  };
}

/**
 * All of PostgreSQL's CPU: the postmaster, its live processes, and those that ended (a pooled
 * connection closed when idle), which the postmaster has reaped into its children's time. The
 * machine is otherwise idle, so this is the load's.
 */
function postgresCpuMs(): number {
  const postmaster = Number(execFileSync('pgrep', ['-o', '-x', 'postgres']).toString().trim());
  const children = execFileSync('pgrep', ['-P', String(postmaster)])
    .toString()
    .trim()
    .split('\n')
    .map(Number);
  const own = cpuMs(postmaster);
  return (
    own.user +
    own.system +
    own.children +
    children.reduce((sum, pid) => {
      try {
        const { user, system } = cpuMs(pid);
        return sum + user + system;
      } catch {
        return sum; // ended between the listing and the read: reaped into the postmaster's figure
      }
    }, 0)
  );
}

interface Target {
  name: string;
  /** Starts it on `db` and answers where to send sales, with the keys to send them with. */
  start(db: TestDatabase): Promise<{ service: ServiceProcess; path: string; keys: string[] }>;
}

const serviceTarget = (name: string, entry: 'built' | { builtIn: string }): Target => ({
  name,
  async start(db) {
    const service = await ServiceProcess.start({
      entry,
      nodeArgs: entry === 'built' ? NODE_ARGS : [],
      env: {
        DATABASE_URL: db.url,
        ADMIN_API_KEY: ADMIN_KEY,
        LOG_LEVEL: 'info',
        RATE_LIMIT_SANDBOX: '1000000000',
        REDIS_URL,
        REDIS_KEY_PREFIX: `bench-${randomBytes(4).toString('hex')}:`,
      },
    });
    return {
      service,
      path: '/api/v1/transaction',
      keys: await onboardMerchants(service.baseUrl, ADMIN_KEY, benchMerchantIds(MERCHANTS)),
    };
  },
});

const BEFORE = process.env.BENCH_BEFORE
  ? serviceTarget(`service, before (${process.env.BENCH_BEFORE})`, { builtIn: process.env.BENCH_BEFORE })
  : undefined;
const NOW = serviceTarget(NODE_ARGS.length > 0 ? `service (node ${NODE_ARGS.join(' ')})` : 'service', 'built');

/** The peer of bench/transactions.bench.ts, so that the service's CPU per sale reads against the same sales' on another event store. */
const TARGETS: Target[] = [
  {
    name: 'peer (Fastify + Emmett appendToStream)',
    async start(db) {
      const service = await ServiceProcess.start({
        entry: { tsFile: 'bench/peer-server.ts' },
        env: { DATABASE_URL: db.url },
      });
      return { service, path: '/api/v1/peer', keys: [''] };
    },
  },
  ...(BEFORE ? [BEFORE] : []),
  NOW,
];

/** One measurement: its rate, and the CPU ms per request of the target itself and of PostgreSQL. */
interface Figures {
  reqPerSecond: number;
  itself: number;
  postgres: number;
}

/** One target alone on the machine: its CPU, PostgreSQL's, Redis's and the load generator's per request. */
async function measure(target: Target): Promise<Figures> {
  const db = await createTestDatabase('postgres');
  const { service, path, keys } = await target.start(db);
  try {
    const sales = benchSales(20_000, benchMerchantIds(MERCHANTS));
    await loadSales(service.port, path, keys, sales, CONNECTIONS, 5);
    const redis = Number(execFileSync('pgrep', ['-x', 'redis-server']).toString().trim().split('\n')[0]);
    const pid = service.child.pid!;
    const redisMs = () => {
      const { user, system } = cpuMs(redis);
      return user + system;
    };
    const before = { service: cpuMs(pid), postgres: postgresCpuMs(), redis: redisMs(), generator: process.cpuUsage() };
    const result = await loadSales(service.port, path, keys, sales, CONNECTIONS, SECONDS);
    const generator = process.cpuUsage(before.generator);
    const after = cpuMs(pid);
    const user = after.user - before.service.user;
    const system = after.system - before.service.system;
    const postgres = postgresCpuMs() - before.postgres;
    const per = (ms: number) => (ms / result.requests.total).toFixed(2);
    console.log(
      `${target.name}: ${result.requests.total} requests at ${CONNECTIONS} connections, ${result.requests.average} req/s, p99 ${result.latency.p99} ms, ${result.non2xx} not 2xx`,
    );
    console.log(
      `  CPU ms per request: itself ${per(user)} user + ${per(system)} system, ` +
        `PostgreSQL ${per(postgres)}, Redis ${per(redisMs() - before.redis)}, ` +
        `load generator ${per((generator.user + generator.system) / 1000)}`,
    );
    return {
      reqPerSecond: result.requests.average,
      itself: (user + system) / result.requests.total,
      postgres: postgres / result.requests.total,
    };
  } finally {
    await service.stop();
    await db.drop();
  }
}

async function main(): Promise<void> {
  const rounds = new Map<Target, Figures[]>(TARGETS.map((target) => [target, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? TARGETS : [...TARGETS].reverse();
    for (const target of order) rounds.get(target)!.push(await measure(target));
  }
  if (ROUNDS === 1) return;
  console.log(`\nMedians of ${ROUNDS} rounds, CPU ms per request:`);
  const both = (f: Figures) => f.itself + f.postgres;
  for (const [target, figures] of rounds) {
    const middle = (pick: (f: Figures) => number) => pick(median(figures, pick));
    console.log(
      `  ${target.name}: itself ${middle((f) => f.itself).toFixed(2)}, PostgreSQL ${middle((f) => f.postgres).toFixed(2)}, both ${middle(both).toFixed(2)}, ${middle((f) => f.reqPerSecond).toFixed(0)} req/s`,
    );
  }
  if (!BEFORE) return;
  const ratio = (pick: (f: Figures) => number) =>
    rounds
      .get(NOW)!
      .map((f, i) => (pick(f) / pick(rounds.get(BEFORE)![i])).toFixed(2))
      .join(', ');
  console.log(
    `  ${NOW.name} against ${BEFORE.name}, round by round: itself ${ratio((f) => f.itself)}; both ${ratio(both)}; req/s ${ratio((f) => f.reqPerSecond)}`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
