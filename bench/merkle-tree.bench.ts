/**
 * The Merkle tree at 1,000,000 entries on PostgreSQL: the time an append adds for the tree (the
 * frontier's hashes and the one upsert of its new nodes), and the time of a tree head's root, an
 * inclusion and a consistency proof (one query for O(log n) nodes, then the hashing), each beside a baseline in
 * the same run and database: one single-row insert, and one single-row select by primary key.
 * Writes the table into docs/benchmarks.md between the bench:merkle markers.
 *
 * The tree is built once, untimed, from random chain hashes, through the same MerkleFrontier and
 * writeNodes the event store uses. Proofs are checked against the tree's root outside the timings,
 * so a wrong proof fails the run instead of being timed.
 *
 * Run: node -r ts-node/register/transpile-only bench/merkle-tree.bench.ts [entries, default 1000000]
 */
import { randomBytes } from 'node:crypto';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { PROJECTORS } from '../src/projectors';
import { openDatabase } from '../src/platform/event-store/event-store.module';
import { fromStoredTree, writeNodes } from '../src/platform/event-store/merkle-store';
import {
  consistencyPath,
  inclusionPath,
  leafHash,
  MerkleFrontier,
  treeRoot,
  verifyConsistency,
  verifyInclusion,
  type TreeNode,
} from '@crcs/tlog';
import type { Database } from '../src/platform/event-store/sql';
import { createTestDatabase } from '../test/support/test-database';
import { replaceSection } from './support/report';

const ENTRIES = Number(process.argv[2] ?? 1_000_000);
/** Operations timed per row of the table, one after another (one client: latency at a fixed load of one). */
const SAMPLES = 2000;
const WRITE_BATCH = 50_000;
process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';

interface Timing {
  what: string;
  p50: number;
  p99: number;
  perSecond: number;
}

async function time(what: string, run: (i: number) => Promise<void>): Promise<Timing> {
  const took: number[] = [];
  const started = performance.now();
  for (let i = 0; i < SAMPLES; i++) {
    const t = performance.now();
    await run(i);
    took.push(performance.now() - t);
  }
  const total = performance.now() - started;
  took.sort((a, b) => a - b);
  return {
    what,
    p50: took[Math.floor(SAMPLES * 0.5)],
    p99: took[Math.floor(SAMPLES * 0.99)],
    perSecond: (SAMPLES / total) * 1000,
  };
}

async function build(db: Database): Promise<MerkleFrontier> {
  const frontier = MerkleFrontier.empty();
  let pending: TreeNode[] = [];
  for (let i = 0; i < ENTRIES; i++) {
    pending.push(...frontier.append(leafHash(randomBytes(32).toString('hex'))));
    if (pending.length >= WRITE_BATCH) {
      await writeNodes(db, pending);
      pending = [];
    }
  }
  await writeNodes(db, pending);
  return frontier;
}

async function main(): Promise<void> {
  const database = await createTestDatabase('postgres');
  const db = await openDatabase({ databaseUrl: database.url, projectors: PROJECTORS });
  try {
    const buildStarted = performance.now();
    const frontier = await build(db);
    const buildSeconds = (performance.now() - buildStarted) / 1000;
    await db.query('analyze merkle_nodes');
    const size = frontier.size;
    const [{ nodes }] = await db.query<{ nodes: string }>('select count(*) as nodes from merkle_nodes');
    const root = frontier.root();
    console.log(`built a tree of ${size} leaves in ${buildSeconds.toFixed(1)} s`);

    await db.query('create table bench_rows (id bigint primary key, hash bytea not null)');
    const baselineInsert = await time('baseline: insert one row (own transaction)', (i) =>
      db.transaction(
        async (tx) => void (await tx.query('insert into bench_rows (id, hash) values ($1, $2)', [i, randomBytes(32)])),
      ),
    );
    const appendTree = await time('append: frontier hashes + upsert of the new nodes (own transaction)', () =>
      db.transaction((tx) => writeNodes(tx, frontier.append(leafHash(randomBytes(32).toString('hex'))))),
    );
    const grown = frontier.size;
    const baselineSelect = await time('baseline: select one node by primary key', async (i) => {
      await db.query('select hash from merkle_nodes where level = 0 and idx = $1', [(i * 7919) % grown]);
    });
    const heads: Buffer[] = [];
    const treeHead = await time(
      `tree head: the root at tree_size ${size.toLocaleString('en-US')} (one query, then hashing)`,
      async (i) => {
        heads[i] = await fromStoredTree(db, (node) => treeRoot(size, node));
      },
    );
    if (heads.some((head) => !head.equals(root))) throw new Error('a stored root differs from the frontier’s');
    // The proofs are over the tree as built, so they can be checked against its root.
    const positions = Array.from({ length: SAMPLES }, (_, i) => 1 + ((i * 104_729) % size));
    const inclusions: Buffer[][] = [];
    const inclusion = await time(
      `inclusion proof at tree_size ${size.toLocaleString('en-US')} (one query, then hashing)`,
      async (i) => {
        inclusions[i] = await fromStoredTree(db, (node) => inclusionPath(positions[i] - 1, size, node));
      },
    );
    const firsts = positions.map((p) => Math.max(1, p - 1));
    const consistencies: { path: Buffer[]; firstRoot: Buffer }[] = [];
    const consistency = await time(
      `consistency proof to tree_size ${size.toLocaleString('en-US')} (one query, then hashing)`,
      async (i) => {
        consistencies[i] = await fromStoredTree(db, (node) => ({
          path: consistencyPath(firsts[i], size, node),
          firstRoot: treeRoot(firsts[i], node),
        }));
      },
    );

    const leaves = await db.query<{ idx: string; hash: Buffer }>(
      'select idx, hash from merkle_nodes where level = 0 and idx = any($1::bigint[])',
      [positions.map((p) => p - 1)],
    );
    const leafAt = new Map(leaves.map((row) => [Number(row.idx), row.hash]));
    positions.forEach((p, i) => {
      if (!verifyInclusion(p - 1, size, leafAt.get(p - 1)!, inclusions[i], root))
        throw new Error(`the inclusion proof of ${p} does not verify`);
      if (!verifyConsistency(firsts[i], size, consistencies[i].path, consistencies[i].firstRoot, root))
        throw new Error(`the consistency proof from ${firsts[i]} does not verify`);
    });

    const row = (t: Timing, base: Timing) =>
      `| ${t.what} | ${t.p50.toFixed(3)} ms | ${t.p99.toFixed(3)} ms | ${Math.round(t.perSecond)} | ${base === t ? '(baseline)' : `p50 ${(t.p50 / base.p50).toFixed(2)}×, throughput ${Math.round((t.perSecond / base.perSecond) * 100)}%`} |`;
    const table = [
      `Node ${process.version}, ${availableParallelism()} cores (${cpus()[0]?.model.trim()}), ${new Date().toISOString().slice(0, 10)}, load average ${loadavg()[0].toFixed(1)} at the end; ` +
        `a tree of ${size.toLocaleString('en-US')} leaves (${Number(nodes).toLocaleString('en-US')} stored nodes) built in ${buildSeconds.toFixed(1)} s; ${SAMPLES} operations per row, one after another; every proof verified against the root.`,
      '',
      '| operation | p50 | p99 | per second | against the baseline above it |',
      '|---|---|---|---|---|',
      row(baselineInsert, baselineInsert),
      row(appendTree, baselineInsert),
      row(baselineSelect, baselineSelect),
      row(treeHead, baselineSelect),
      row(inclusion, baselineSelect),
      row(consistency, baselineSelect),
    ].join('\n');
    console.log(table);
    await replaceSection('merkle', table);
  } finally {
    await db.close();
    await database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
