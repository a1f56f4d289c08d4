/**
 * The endpoint's verification of a 1,000,000-entry chain, beside its floor: single-core SHA-256
 * over the very bytes hashed at append time (the canonical JSON of each entry), in the same run.
 * The entries are written to a PostgreSQL database of their own (untimed), then `verifyStoredLog`
 * (what `GET /admin/verify-hash-chain` runs, from the built service) reads and verifies them. The
 * offline verifier's bench is the log package's own (packages/tlog/bench/verify-chain.bench.ts).
 *
 * Entries are built a chunk at a time, with one stream per sale as in the service (packages/tlog/bench/sale-entries.ts).
 * Run: npm run bench (builds first); alone, after `npm run build`:
 * node -r ts-node/register/transpile-only bench/chain-verification.bench.ts [entries, default 1000000]
 */
import { availableParallelism, cpus } from 'node:os';
import { createTestDatabase } from '../test/support/test-database';
import { chainWithFloor } from '../packages/tlog/bench/sale-entries';
import { insertEntries } from './support/chain-entries';
import { replaceSection } from './support/report';

// The built modules, as the service runs them (its hashing threads are built JavaScript too).
const { migrate } =
  require('../dist/src/platform/event-store/migrations') as typeof import('../src/platform/event-store/migrations');
const { verifyStoredLog } =
  require('../dist/src/platform/verification/stored-verification') as typeof import('../src/platform/verification/stored-verification');

const ENTRIES = Number(process.argv[2] ?? 1_000_000);
process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';

const seconds = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e9;

async function main(): Promise<void> {
  const database = await createTestDatabase('postgres');
  const db = await database.open();
  try {
    await migrate(db);
    // The bench's own database: a gigabyte and a half of rows need not go through the write-ahead log.
    await db.query('alter table events set unlogged');
    const { seconds: floor, bytes, checksum } = await chainWithFloor(ENTRIES, (chunk) => insertEntries(db, chunk));
    await db.query('vacuum analyze events');

    const rssBefore = process.memoryUsage().rss;
    let endpointPeak = rssBefore;
    const sampler = setInterval(() => (endpointPeak = Math.max(endpointPeak, process.memoryUsage().rss)), 100);
    const endpointStart = process.hrtime.bigint();
    const verified = await verifyStoredLog(db, 1, ENTRIES);
    const endpoint = seconds(endpointStart);
    clearInterval(sampler);
    if (verified.verified_count !== ENTRIES) throw new Error('the stored chain did not verify');

    const fmt = (s: number) => `${s.toFixed(2)} s`;
    const mb = (b: number) => `${(b / 2 ** 20).toFixed(0)} MB`;
    const ratio = (s: number) => `${(s / floor).toFixed(2)}×`;
    const report = [
      `Node ${process.version}, ${availableParallelism()} CPUs (${cpus()[0]?.model ?? 'unknown'}), ${new Date().toISOString().slice(0, 10)}, ` +
        `${ENTRIES.toLocaleString('en-US')} entries of ${(bytes / ENTRIES).toFixed(0)} bytes (checksum ${checksum % 10}):`,
      '',
      '| what | time | / floor | memory |',
      '|---|---|---|---|',
      `| SHA-256 alone over the entries' bytes, one core (the floor) | ${fmt(floor)} | 1.00× | |`,
      `| endpoint: \`verifyStoredLog\` over PostgreSQL | ${fmt(endpoint)} | ${ratio(endpoint)} | RSS grew ${mb(endpointPeak - rssBefore)} |`,
    ].join('\n');
    console.log(report);
    if (ENTRIES === 1_000_000) await replaceSection('chain-verification', report);
  } finally {
    await database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
