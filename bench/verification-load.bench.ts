/**
 * A point of sale while auditors verify (issue 33, "Load"): the p99 of POST /transaction at one
 * connection (one till, a sale after the last), first with nothing else running (the baseline, in
 * the same run), then while 8 callers each ask GET /admin/verify-hash-chain again and again. The
 * built service as `npm start` runs it, on PostgreSQL, over a log of BENCH_ENTRIES sales made
 * through the API first. Writes the table into docs/benchmarks.md between the
 * bench:verification-load markers.
 *
 * Run: npm run bench:verification (builds first). BENCH_SECONDS (default 20) per measurement,
 * BENCH_ENTRIES (default 30000).
 */
import { randomBytes } from 'node:crypto';
import { availableParallelism, cpus } from 'node:os';
import { ServiceProcess } from '../test/support/service-process';
import { createTestDatabase } from '../test/support/test-database';
import { benchSales } from './support/sales';
import { replaceSection } from './support/report';
import { benchMerchantIds, loadSales, onboardMerchants } from './support/service-load';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 30_000);
const VERIFIERS = 8;
const MERCHANTS = 20;
const ADMIN_KEY = `bench-admin-${randomBytes(12).toString('hex')}`;
process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';

interface Verifications {
  answered: number;
  refused: number;
  other: number;
  slowestMs: number;
}

/** VERIFIERS loops of GET /admin/verify-hash-chain until `stop`, counting what they were answered. */
async function verifyInLoops(baseUrl: string, stop: AbortSignal): Promise<Verifications> {
  const counts: Verifications = { answered: 0, refused: 0, other: 0, slowestMs: 0 };
  await Promise.all(
    Array.from({ length: VERIFIERS }, async () => {
      while (!stop.aborted) {
        const started = performance.now();
        const response = await fetch(`${baseUrl}/admin/verify-hash-chain`, { headers: { 'x-api-key': ADMIN_KEY } });
        await response.arrayBuffer();
        counts.slowestMs = Math.max(counts.slowestMs, performance.now() - started);
        if (response.status === 200) counts.answered += 1;
        else if (response.status === 429) {
          counts.refused += 1;
          // As a client should: wait what Retry-After says, or until the measurement ends.
          const wait = Number(response.headers.get('retry-after') ?? 1) * 1000;
          await new Promise((resolve) => setTimeout(resolve, wait).unref());
        } else counts.other += 1;
      }
    }),
  );
  return counts;
}

async function main(): Promise<void> {
  const db = await createTestDatabase('postgres');
  const service = await ServiceProcess.start({
    entry: 'built',
    env: {
      DATABASE_URL: db.url,
      ADMIN_API_KEY: ADMIN_KEY,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_SANDBOX: '1000000000',
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    },
  });
  try {
    const merchantIds = benchMerchantIds(MERCHANTS);
    const keys = await onboardMerchants(service.baseUrl, ADMIN_KEY, merchantIds);
    const sales = benchSales(ENTRIES, merchantIds);
    let made = 0;
    while (made < ENTRIES) {
      const result = await loadSales(service.port, '/api/v1/transaction', keys, sales, 16, 5);
      made += result['2xx'];
    }
    const idle = await loadSales(service.port, '/api/v1/transaction', keys, sales, 1, SECONDS);
    const stop = new AbortController();
    const verifying = verifyInLoops(service.baseUrl, stop.signal);
    const loaded = await loadSales(service.port, '/api/v1/transaction', keys, sales, 1, SECONDS);
    stop.abort();
    const verifications = await verifying;
    const failed = (r: typeof idle) => r.non2xx + r.errors + r.timeouts;
    const row = (name: string, r: typeof idle) =>
      `| ${name} | ${r.requests.average.toFixed(0)} | ${r.latency.p50} | ${r.latency.p99} | ${(r.latency.p99 / idle.latency.p99).toFixed(2)}× | ${failed(r)} |`;
    const table = [
      `${cpus()[0]?.model ?? 'unknown CPU'}, ${availableParallelism()} cores; a log of about ${made + 2 * MERCHANTS} entries; ${SECONDS} s each; one till (1 connection).`,
      '',
      '| sales at one till | sales/s | p50 ms | p99 ms | p99 vs idle | failed |',
      '|---|---|---|---|---|---|',
      row('idle (baseline)', idle),
      row(`with ${VERIFIERS} callers verifying the chain in loops`, loaded),
      '',
      `The ${VERIFIERS} callers got ${verifications.answered} verifications answered (one at a time), ${verifications.refused} refused with ` +
        `429 \`VERIFICATION_IN_PROGRESS\` (each then waited its \`Retry-After\`), ${verifications.other} other answers; the slowest took ` +
        `${(verifications.slowestMs / 1000).toFixed(1)} s.`,
    ].join('\n');
    console.log(table);
    await replaceSection('verification-load', table);
  } finally {
    await service.stop();
    await db.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
