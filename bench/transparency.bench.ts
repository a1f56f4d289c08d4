/**
 * The log as a transparency log at 1,000,000 entries (issue 34): tlog-tiles and the checkpoint
 * served by the built service on PostgreSQL, and witness round trips, each beside a primary-key
 * read by HTTP of the same stack in the same run (bench/baseline-server.ts, `GET /baseline/:id`,
 * over a table of as many rows). Writes the tables into docs/benchmarks.md between the
 * bench:transparency markers.
 *
 * The log: the service starts once on an empty database (its witness file and log origin are made
 * as at any first start) and stops; the bench then appends ENTRIES cash-sale entries of about
 * 1.6 kB (packages/tlog/bench/sale-entries.ts) after its head as the store's append writes them: chained,
 * each with its writer authenticator, and the Merkle tree's new nodes from the same MerkleFrontier
 * and writeNodes, a chunk of 1000 per transaction. The tables are unlogged (no write-ahead log for
 * two gigabytes of rows; reads are the same) and the read models' checkpoints are moved past the
 * bulk-loaded entries (the read models do not hold them; nothing here reads them). The service then
 * starts again and its own signer verifies every entry and signs the first checkpoint over them.
 *
 * Tiles and the checkpoint: LOG_PUBLIC=true (no key, as a monitor reads a public log), at random
 * tile indexes over the whole tree, BENCH_SECONDS each at CONNECTIONS connections with autocannon;
 * the baseline is measured first and last, and the ratios are to the mean of the two.
 *
 * Witness round trips: a real `npm run witness` process; for each round one entry is appended
 * through the API, the service signs a checkpoint over it (CHECKPOINT_INTERVAL=2), and the
 * service's own Cosignatures (the built module, in this process, on the same database) asks the
 * witness to cosign it: the consistency proof from the witness's last size read from the stored
 * tree, POST add-checkpoint, the witness's checks and its state written to disk, the cosignature
 * verified and stored. Timed one at a time, beside PK reads by HTTP one at a time.
 *
 * Run: npm run bench:transparency (builds first). Alone, after `npm run build`:
 * node -r ts-node/register/transpile-only bench/transparency.bench.ts [entries, default 1000000]
 * BENCH_SECONDS (default 10) per row, BENCH_ROUNDS (default 50) witness round trips,
 * BENCH_CPU_PROF=<dir>: the service writes a V8 CPU profile there when it stops.
 */
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type autocannon from 'autocannon';
import { ServiceProcess } from '../test/support/service-process';
import { createTestDatabase } from '../test/support/test-database';
import { WitnessProcess } from '../test/support/witness-process';
import { saleEntries } from '../packages/tlog/bench/sale-entries';
import { insertEntries } from './support/chain-entries';
import { seededRandom } from './support/random';
import { replaceSection } from './support/report';
import { load } from './support/service-load';

// The built modules, as the service runs them.
const { PgDatabase } =
  require('../dist/src/platform/event-store/pg-database') as typeof import('../src/platform/event-store/pg-database');
const { loadFrontier, writeNodes, fromStoredTree } =
  require('../dist/src/platform/event-store/merkle-store') as typeof import('../src/platform/event-store/merkle-store');
const { leafHash, consistencyPath } = require('@crcs/tlog') as typeof import('@crcs/tlog');
const { writerKey } = require('@crcs/tlog') as typeof import('@crcs/tlog');
const { SqlEventStore } =
  require('../dist/src/platform/event-store/sql-event-store') as typeof import('../src/platform/event-store/sql-event-store');
const { LogOrigin } =
  require('../dist/src/platform/event-store/log-origin') as typeof import('../src/platform/event-store/log-origin');
const { SystemClock } = require('../dist/src/platform/clock') as typeof import('../src/platform/clock');
const { loadConfig } = require('../dist/src/platform/config/config') as typeof import('../src/platform/config/config');
const { verifierKey } = require('@crcs/tlog') as typeof import('@crcs/tlog');
const { TILE_WIDTH, tilePath, parseTilePath } = require('@crcs/tlog') as typeof import('@crcs/tlog');
const { ChainAlarms } = require('../dist/src/audit/chain-alarms') as typeof import('../src/audit/chain-alarms');
const { CheckpointNotes } =
  require('../dist/src/audit/checkpoint-notes') as typeof import('../src/audit/checkpoint-notes');
const { Cosignatures } = require('../dist/src/audit/cosignatures') as typeof import('../src/audit/cosignatures');

const ENTRIES = Number(process.argv[2] ?? 1_000_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 50);
const CONNECTIONS = 8;
const WARM_UP_SECONDS = 3;
/** PK reads timed one at a time, the witness round trips' baseline. */
const SEQUENTIAL_READS = 200;
const CHUNK = 1000;
const ORIGIN = 'bench.example/transparency';
const ADMIN_KEY = `bench-admin-${randomBytes(12).toString('hex')}`;
process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';
const nodeArgs = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];

/** The baseline's row `n` (1 to ENTRIES): its id is the MD5 of n, as the seeding SQL makes it. */
const baselineId = (n: number) => createHash('md5').update(String(n)).digest('hex');

interface Measured {
  what: string;
  bytes: number;
  result: autocannon.Result;
}

async function measure(what: string, port: number, path: () => string): Promise<Measured> {
  const result = await load(port, CONNECTIONS, SECONDS, () => ({ method: 'GET', path: path() }));
  const failed = result.non2xx + result.errors + result.timeouts;
  if (failed > 0) throw new Error(`${what}: ${failed} of ${result.requests.total} requests failed`);
  const row = { what, bytes: result.throughput.total / result.requests.total, result };
  console.log(
    JSON.stringify({
      what,
      requestsPerSecond: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      load: loadavg()[0],
    }),
  );
  return row;
}

/** One answer of each kind, checked before it is loaded: a tile is `width` hashes of 32 bytes, a bundle's entries each 2 + 32. */
async function checkAnswer(url: string, expectedBytes: number): Promise<void> {
  const response = await fetch(url);
  const bytes = Buffer.from(await response.arrayBuffer());
  if (response.status !== 200 || bytes.length !== expectedBytes)
    throw new Error(`${url}: ${response.status}, ${bytes.length} bytes, not ${expectedBytes}`);
}

/** p-th percentile of the samples (sorted here), ms. */
const percentile = (samples: number[], p: number) =>
  [...samples].sort((a, b) => a - b)[Math.min(samples.length - 1, Math.floor(samples.length * p))];

/** The tree size of the log's latest checkpoint, once it is past `after`. */
async function checkpointAfter(baseUrl: string, after: number, limitMs: number): Promise<number> {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    const response = await fetch(`${baseUrl}/log/checkpoint`);
    const text = await response.text();
    const size = response.status === 200 ? Number(text.split('\n')[1]) : 0;
    if (size > after) return size;
    await sleep(50);
  }
  throw new Error(`no checkpoint past tree size ${after} within ${limitMs / 1000} s`);
}

async function main(): Promise<void> {
  if (ENTRIES < 2 ** 16) throw new Error('the bench needs at least 65,536 entries: a full tile at level 1');
  const work = await mkdtemp(join(tmpdir(), 'crcs-transparency-bench-'));
  const database = await createTestDatabase('postgres');
  const db = new PgDatabase(database.url);
  const key = generateKeyPairSync('ed25519').privateKey;
  const policyFile = join(work, 'policy');
  const env = {
    DATABASE_URL: database.url,
    DATA_DIR: join(work, 'data'),
    ADMIN_API_KEY: ADMIN_KEY,
    LOG_LEVEL: 'warn',
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_KEY_PREFIX: `bench-transparency-${process.pid}:`,
    CHECKPOINT_SIGNING_KEY: key.export({ format: 'pem', type: 'pkcs8' }) as string,
    CHECKPOINT_WITNESS_FILE: join(work, 'operator-witness.ndjson'),
    // One appended entry past a checkpoint (its own entry) is due: a checkpoint per witness round.
    CHECKPOINT_INTERVAL: '2',
    // The periodic re-verification of the signed log (a background pass over all of it) is not what is measured.
    CHECKPOINT_REVERIFY_S: '86400',
    LOG_ORIGIN: ORIGIN,
    LOG_PUBLIC: 'true',
  };
  const running: { stop(): Promise<unknown> }[] = [];
  try {
    // A first start makes what every log has: the schema, the origin, the witness file with the empty tree's head.
    await (await ServiceProcess.start({ entry: 'built', env, startupLimitMs: 120_000 })).stop();

    const buildStarted = performance.now();
    await db.query('alter table events set unlogged');
    await db.query('alter table merkle_nodes set unlogged');
    const [head] = await db.query<{ position: string; hash: string }>('select position, hash from event_store_head');
    const first = Number(head.position);
    const frontier = await loadFrontier(db, first);
    const nextChunk = saleEntries({ position: first, hash: head.hash }, Date.now() - (ENTRIES + 3600) * 1000);
    const macKey = writerKey(key);
    let writing: Promise<unknown> = Promise.resolve();
    let last = { position: first, hash: head.hash };
    for (let done = 0; done < ENTRIES; done += CHUNK) {
      // The next chunk is made while the last one is written.
      const chunk = nextChunk(Math.min(CHUNK, ENTRIES - done));
      const nodes = chunk.flatMap((e) => frontier.append(leafHash(e.hash)));
      await writing;
      writing = db.transaction(async (tx) => {
        await insertEntries(tx, chunk, macKey);
        await writeNodes(tx, nodes);
      });
      last = { position: chunk.at(-1)!.fields.position, hash: chunk.at(-1)!.hash };
      if (done % 100_000 === 0) process.stdout.write(`\rappended ${done.toLocaleString('en-US')} entries`);
    }
    await writing;
    await db.query('update event_store_head set position = $1, hash = $2', [last.position, last.hash]);
    await db.query('update projection_checkpoints set position = $1', [last.position]);
    await db.query('analyze events');
    await db.query('analyze merkle_nodes');
    const loadedSeconds = (performance.now() - buildStarted) / 1000;
    process.stdout.write(
      `\rappended ${ENTRIES.toLocaleString('en-US')} entries after position ${first} in ${loadedSeconds.toFixed(1)} s\n`,
    );

    const service = await ServiceProcess.start({ entry: 'built', nodeArgs, env, startupLimitMs: 120_000 });
    running.push(service);
    const size = await checkpointAfter(service.baseUrl, last.position - 1, 600_000);
    const builtSeconds = (performance.now() - buildStarted) / 1000;
    console.log(
      `the service signed a checkpoint of tree size ${size} ${builtSeconds.toFixed(1)} s after the bulk load began`,
    );

    const baseline = await ServiceProcess.start({
      entry: { tsFile: 'bench/baseline-server.ts' },
      env: { DATABASE_URL: database.url },
    });
    running.push(baseline);
    await db.query(
      `insert into baseline_sales (id, merchant_id, data, recorded_at)
       select md5(n::text)::uuid, 'bench-merchant-' || (n % 20),
              jsonb_build_object('subtotal_cents', 1000 + n % 997, 'tax_total_cents', 86, 'payment_method', 'cash', 'zip_code', '85004', 'cashier_id', 'emp-' || (n % 31)),
              now() - n * interval '1 second'
       from generate_series(1, $1::int) n`,
      [ENTRIES],
    );
    await db.query('analyze baseline_sales');

    const random = seededRandom(34);
    const below = (n: number) => Math.floor(random() * n);
    const fullTiles = (level: number) => Math.floor(size / TILE_WIDTH ** (level + 1));
    const tile = (level: number | 'entries', index: number, width: number = TILE_WIDTH) =>
      `/api/v1/log/${tilePath({ level, index, width })}`;
    const top = Math.floor(size / TILE_WIDTH ** 2) % TILE_WIDTH;
    const rows: { what: string; path: () => string }[] = [
      { what: '`GET /log/checkpoint`', path: () => '/api/v1/log/checkpoint' },
      {
        what: `hash tile, level 0, full (random of ${fullTiles(0).toLocaleString('en-US')})`,
        path: () => tile(0, below(fullTiles(0))),
      },
      { what: `hash tile, level 1, full (random of ${fullTiles(1)})`, path: () => tile(1, below(fullTiles(1))) },
      { what: `hash tile, level 2, partial (the top, ${top} wide)`, path: () => tile(2, 0, top) },
      {
        what: 'hash tile, level 0, partial (random index and width)',
        path: () => tile(0, below(fullTiles(0)), 1 + below(TILE_WIDTH - 1)),
      },
      {
        what: `entry bundle, full (random of ${fullTiles(0).toLocaleString('en-US')})`,
        path: () => tile('entries', below(fullTiles(0))),
      },
      {
        what: 'entry bundle, partial (random index and width)',
        path: () => tile('entries', below(fullTiles(0)), 1 + below(TILE_WIDTH - 1)),
      },
    ];
    for (const { path } of rows.slice(1)) {
      const sample = path();
      const { level, width } = parseTilePath(sample.replace('/api/v1/log/tile/', ''));
      await checkAnswer(`http://127.0.0.1:${service.port}${sample}`, width * (level === 'entries' ? 34 : 32));
    }
    const baselinePath = () => `/api/v1/baseline/${baselineId(1 + below(ENTRIES))}`;
    await load(baseline.port, CONNECTIONS, WARM_UP_SECONDS, () => ({ method: 'GET', path: baselinePath() }));
    await load(service.port, CONNECTIONS, WARM_UP_SECONDS, () => ({ method: 'GET', path: rows[1].path() }));

    const loads = [loadavg()[0]];
    const before = await measure(
      'baseline: PK read of one row (bare Fastify + pg), at the start',
      baseline.port,
      baselinePath,
    );
    const measured: Measured[] = [];
    for (const row of rows) measured.push(await measure(row.what, service.port, row.path));
    const after = await measure('baseline again, at the end', baseline.port, baselinePath);

    // Witness round trips, one at a time, beside PK reads one at a time.
    const reads: number[] = [];
    for (let i = 0; i < SEQUENTIAL_READS; i++) {
      const started = performance.now();
      const response = await fetch(`http://127.0.0.1:${baseline.port}${baselinePath()}`);
      await response.arrayBuffer();
      reads.push(performance.now() - started);
      if (response.status !== 200) throw new Error(`baseline read: ${response.status}`);
    }
    const witness = await WitnessProcess.start(join(work, 'witness'), [verifierKey(ORIGIN, key)]);
    running.push(witness);
    await writeFile(
      policyFile,
      `log ${verifierKey(ORIGIN, key)}\nwitness W1 ${witness.vkey} ${witness.url}\nquorum W1\n`,
    );
    const config = loadConfig({ ...env, LOG_POLICY_FILE: policyFile });
    const clock = new SystemClock();
    const alarms = new ChainAlarms(new SqlEventStore(db, clock, macKey), clock);
    const origin = await LogOrigin.fix(db, ORIGIN);
    const cosignatures = new Cosignatures(db, config, origin, alarms, new CheckpointNotes(db, config, origin, alarms));
    const trips: number[] = [];
    const proofs: number[] = [];
    let cosigned = 0;
    for (let round = 0; round <= ROUNDS; round++) {
      const response = await fetch(`${service.baseUrl}/admin/merchants`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': ADMIN_KEY },
        body: JSON.stringify({
          merchant_id: `bench-witnessed-${round}`,
          name: `Witnessed ${round}`,
          environment: 'sandbox',
        }),
      });
      if (response.status !== 201) throw new Error(`appending an entry: ${response.status} ${await response.text()}`);
      const next = await checkpointAfter(service.baseUrl, Math.max(cosigned, size), 30_000);
      const started = performance.now();
      cosignatures.collect();
      await cosignatures.idle();
      const took = performance.now() - started;
      const [{ size: stored }] = await db.query<{ size: string | null }>(
        'select max(tree_size) as size from checkpoint_cosignatures',
      );
      if (Number(stored) < next || alarms.active().length > 0)
        throw new Error(
          `no cosignature on the checkpoint of size ${next}: ${JSON.stringify(alarms.active())}\n${witness.output}`,
        );
      // The first round is the witness's first sight of the log (from size 0, no proof): the warm-up.
      if (round > 0) {
        trips.push(took);
        proofs.push((await fromStoredTree(db, (node) => consistencyPath(cosigned, Number(stored), node))).length);
      }
      cosigned = Number(stored);
    }
    loads.push(loadavg()[0]);

    const fmt = (n: number, digits = 0) =>
      n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
    const baseRate = (before.result.requests.average + after.result.requests.average) / 2;
    const baseMean = (before.result.latency.average + after.result.latency.average) / 2;
    const line = ({ what, bytes, result }: Measured, ratios: boolean) =>
      `| ${what} | ${fmt(bytes)} | ${fmt(result.requests.average)} | ${result.latency.p50} | ${result.latency.p99} | ${fmt(result.latency.average, 2)} | ` +
      `${ratios ? `${fmt(result.requests.average / baseRate, 2)}× | ${fmt(result.latency.average / baseMean, 2)}×` : '(baseline) | (baseline)'} |`;
    const readP50 = percentile(reads, 0.5);
    const text = [
      `Run ${new Date().toISOString().slice(0, 16)}Z: node ${process.version}, ${availableParallelism()} cores (${cpus()[0]?.model.trim() ?? 'unknown'}), ` +
        `the built service and the baseline on PostgreSQL, the load generator in the same machine; load average ${fmt(loads[0], 1)} at the start, ${fmt(loads[1], 1)} at the end. ` +
        `A log of ${fmt(size)} entries (${fmt(ENTRIES)} bulk-loaded in ${fmt(loadedSeconds)} s, signed by the service ${fmt(builtSeconds - loadedSeconds)} s later); ` +
        `the baseline's table ${fmt(ENTRIES)} rows.`,
      '',
      `${CONNECTIONS} connections, ${SECONDS} s per row after a ${WARM_UP_SECONDS} s warm-up; ratios to the mean of the two baseline rows; bytes per answer with its headers; latencies in whole ms as autocannon counts them, the mean to 0.01 ms.`,
      '',
      '| what | bytes per answer | req/s | p50 ms | p99 ms | mean ms | req/s vs baseline | mean latency vs baseline |',
      '|---|---:|---:|---:|---:|---:|---:|---:|',
      line(before, false),
      ...measured.map((m) => line(m, true)),
      line(after, false),
      '',
      `Witness round trips, one at a time: ${ROUNDS} checkpoints, each from the last one the witness cosigned (consistency proofs of ` +
        `${Math.min(...proofs)} to ${Math.max(...proofs)} hashes), after one untimed round from size 0.`,
      '',
      '| what | samples | p50 ms | p90 ms | max ms | p50 vs PK read |',
      '|---|---:|---:|---:|---:|---:|',
      `| PK read of one row by HTTP, one at a time (baseline) | ${SEQUENTIAL_READS} | ${fmt(readP50, 2)} | ${fmt(percentile(reads, 0.9), 2)} | ${fmt(Math.max(...reads), 2)} | (baseline) |`,
      `| add-checkpoint round trip to \`npm run witness\` | ${ROUNDS} | ${fmt(percentile(trips, 0.5), 2)} | ${fmt(percentile(trips, 0.9), 2)} | ${fmt(Math.max(...trips), 2)} | ${fmt(percentile(trips, 0.5) / readP50, 1)}× |`,
    ].join('\n');
    console.log(text);
    if (ENTRIES === 1_000_000) await replaceSection('transparency', text);
  } finally {
    for (const part of running.reverse()) await part.stop();
    await db.close();
    await database.drop();
    await rm(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
