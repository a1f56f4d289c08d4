/**
 * Where the CPU of one POST /transaction goes: the built service on a fresh PostgreSQL database
 * under a fixed load, and the CPU time each process spent per request while it ran, read from
 * /proc (Linux): the service, PostgreSQL (every process of the server: run it on an idle machine),
 * Redis and the load generator itself. On a 2-core machine their sum bounds the rate: 2,000 ms / sum = req/s.
 *
 * Run: npm run build && node -r ts-node/register/transpile-only bench/cpu-per-sale.bench.ts
 * BENCH_SECONDS (default 20), BENCH_CONNECTIONS (default 8); DATABASE_URL and REDIS_URL as for
 * bench/transactions.bench.ts. Prints its figures; docs/benchmarks.md quotes them.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ServiceProcess } from '../test/support/service-process';
import { createTestDatabase } from '../test/support/test-database';
import { benchSales } from './support/sales';
import { benchMerchantIds, loadSales, onboardMerchants } from './support/service-load';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const MERCHANTS = 20;
const ADMIN_KEY = `bench-admin-${randomBytes(12).toString('hex')}`;
process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A process's CPU so far in ms (clock ticks of 10 ms): user, system, and its reaped children's. */
function cpuMs(pid: number): { user: number; system: number; children: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return { user: Number(fields[11]) * 10, system: Number(fields[12]) * 10, children: (Number(fields[13]) + Number(fields[14])) * 10 };
}

/**
 * All of PostgreSQL's CPU: the postmaster, its live processes, and those that ended (a pooled
 * connection closed when idle), which the postmaster has reaped into its children's time. The
 * machine is otherwise idle, so this is the load's.
 */
function postgresCpuMs(): number {
  const postmaster = Number(execFileSync('pgrep', ['-o', '-x', 'postgres']).toString().trim());
  const children = execFileSync('pgrep', ['-P', String(postmaster)]).toString().trim().split('\n').map(Number);
  const own = cpuMs(postmaster);
  return own.user + own.system + own.children + children.reduce((sum, pid) => {
    try {
      const { user, system } = cpuMs(pid);
      return sum + user + system;
    } catch {
      return sum; // ended between the listing and the read: reaped into the postmaster's figure
    }
  }, 0);
}

async function main(): Promise<void> {
  const db = await createTestDatabase('postgres');
  const service = await ServiceProcess.start({
    entry: 'built',
    env: { DATABASE_URL: db.url, ADMIN_API_KEY: ADMIN_KEY, LOG_LEVEL: 'info', RATE_LIMIT_SANDBOX: '1000000000', REDIS_URL, REDIS_KEY_PREFIX: `bench-${randomBytes(4).toString('hex')}:` },
  });
  try {
    const keys = await onboardMerchants(service.baseUrl, ADMIN_KEY, benchMerchantIds(MERCHANTS));
    const sales = benchSales(20_000, benchMerchantIds(MERCHANTS));
    await loadSales(service.port, '/api/v1/transaction', keys, sales, CONNECTIONS, 5);
    const redis = Number(execFileSync('pgrep', ['-x', 'redis-server']).toString().trim().split('\n')[0]);
    const pid = service.child.pid!;
    const redisMs = () => {
      const { user, system } = cpuMs(redis);
      return user + system;
    };
    const before = { service: cpuMs(pid), postgres: postgresCpuMs(), redis: redisMs(), generator: process.cpuUsage() };
    const result = await loadSales(service.port, '/api/v1/transaction', keys, sales, CONNECTIONS, SECONDS);
    const generator = process.cpuUsage(before.generator);
    const after = cpuMs(pid);
    const per = (ms: number) => (ms / result.requests.total).toFixed(2);
    console.log(`${result.requests.total} requests at ${CONNECTIONS} connections, ${result.requests.average} req/s, p99 ${result.latency.p99} ms, ${result.non2xx} not 2xx`);
    console.log(`CPU ms per request: service ${per(after.user - before.service.user)} user + ${per(after.system - before.service.system)} system, ` +
      `PostgreSQL ${per(postgresCpuMs() - before.postgres)}, Redis ${per(redisMs() - before.redis)}, ` +
      `load generator ${per((generator.user + generator.system) / 1000)}`);
  } finally {
    await service.stop();
    await db.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
