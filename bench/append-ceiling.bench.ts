/**
 * The chain head's ceiling: how many appends a second one PostgreSQL takes through the event store
 * (head lock, hash chain, Merkle tree, group commit), with no HTTP and no read model, at 1 to 256
 * concurrent writers, each appending sale-sized events to new streams as the service does.
 * The input of docs/scaling.md. Writes its table into docs/benchmarks.md (bench:append-ceiling).
 *
 * Run: npm run build && node -r ts-node/register/transpile-only bench/append-ceiling.bench.ts
 * BENCH_SECONDS (default 15) sets each measurement's length.
 */
import { availableParallelism, cpus } from 'node:os';
import { SystemClock } from '../src/platform/clock';
import { PgDatabase } from '../src/platform/event-store/pg-database';
import { migrate } from '../src/platform/event-store/migrations';
import { SqlEventStore } from '../src/platform/event-store/sql-event-store';
import { createTestDatabase } from '../test/support/test-database';
import { replaceSection } from './support/report';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const WRITERS = [1, 16, 64, 256];
/** PgDatabase's pool: the service's own. */
const CONNECTIONS = 10;
process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';

/** About the size of a recorded sale's data (1.4 kB of JSON). */
const PAD = 'x'.repeat(1300);

interface Row {
  writers: number;
  appendsPerSecond: number;
  p50: number;
  p99: number;
  meanBatch: number;
}

async function measure(writers: number): Promise<Row> {
  const database = await createTestDatabase('postgres');
  const db = new PgDatabase(database.url);
  try {
    await migrate(db);
    const store = new SqlEventStore(db, new SystemClock());
    let commits = 0;
    let appended = 0;
    store.subscribe((events) => {
      commits += 1;
      appended += events.length;
    });
    const latencies: number[] = [];
    let next = 0;
    const deadline = Date.now() + SECONDS * 1000;
    await Promise.all(
      Array.from({ length: writers }, async () => {
        while (Date.now() < deadline) {
          const n = next++;
          const start = process.hrtime.bigint();
          await store.append(
            `sale-${n}`,
            [{ type: 'Probe', data: { n, pad: PAD }, metadata: { schemaVersion: 1, merchantId: `m-${n % 20}` } }],
            {
              expectedRevision: 0,
            },
          );
          latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
        }
      }),
    );
    latencies.sort((a, b) => a - b);
    const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
    return {
      writers,
      appendsPerSecond: latencies.length / SECONDS,
      p50: at(0.5),
      p99: at(0.99),
      meanBatch: appended / Math.max(commits, 1),
    };
  } finally {
    await db.close();
    await database.drop();
  }
}

async function main(): Promise<void> {
  const rows: Row[] = [];
  for (const writers of WRITERS) {
    rows.push(await measure(writers));
    console.log(rows[rows.length - 1]);
  }
  const report = [
    `Node ${process.version}, ${availableParallelism()} CPUs (${cpus()[0]?.model ?? 'unknown'}), ${new Date().toISOString().slice(0, 10)}, ` +
      `${SECONDS} s per row, ${CONNECTIONS} connections, events of about 1.4 kB, no read model:`,
    '',
    '| writers | appends/s | p50 | p99 | appends per commit |',
    '|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.writers} | ${r.appendsPerSecond.toFixed(0)} | ${r.p50.toFixed(1)} ms | ${r.p99.toFixed(1)} ms | ${r.meanBatch.toFixed(1)} |`,
    ),
  ].join('\n');
  console.log(report);
  await replaceSection('append-ceiling', report);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
