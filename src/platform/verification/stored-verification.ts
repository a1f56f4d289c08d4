import { extname, join, relative } from 'node:path';
import {
  CHECKPOINT_EVENT_TYPE,
  ChainVerifier,
  HASH_POOL,
  HASH_TASKS,
  HashPool,
  MerkleFrontier,
  ObjectsNotReadError,
  type ChainVerification,
  type PoolTasks,
  type VerifierOptions,
} from '@crcs/tlog';
import { projectRoot } from '../project-root';
import type { Database, Sql } from '../event-store/sql';
import { availableParallelism } from 'node:os';
import { hashedEntries, readHashedRange, readStoredEntries, storedRanges, type HashedRange } from './stored-entries';

/** From this many entries the verification runs on worker threads. */
const PARALLEL_FROM = 20_000;

/**
 * Verifies the log from `from` to `to` as stored. In parallel, the whole check runs on a worker
 * thread: it reads position ranges on a connection of its own, hashes them, checks the chain and
 * sends back only the answer, so that the event loop answering sales beside it neither decodes
 * nor collects an object per entry: beside 8 verifying callers a sale's p99 went from 2.33-2.63×
 * its idle value to 1.67-2.25×, a median of 2.44× to 2.00× (docs/benchmarks.md, issue 33). The
 * data of an entry is read only for a checkpoint or a row whose bytes do not hash to its hash; if
 * the verifier wants any other's (around a break), the log is verified again with every entry's
 * texts, so a broken log gives the very same answer.
 */
export async function verifyStoredLog(
  db: Database | Sql,
  from: number,
  to: number,
  options: VerifierOptions = {},
  parallel = to - from + 1 >= PARALLEL_FROM,
): Promise<ChainVerification> {
  if (parallel && 'url' in db) {
    const pool = HashPool.start(STORED_POOL, true, true, 1);
    try {
      const { treeBefore, ...rest } = options;
      const verified = await pool.run('verify', {
        url: db.url,
        from,
        to,
        options: { ...rest, treeBefore: treeBefore?.state() },
      });
      if (verified) return verified;
    } finally {
      await pool.close();
    }
  }
  return withTexts(db, from, to, new ChainVerifier(options), parallel);
}

/** Each entry read on this thread with its texts and hashed as stored on worker threads, while the next batch is read. */
async function withTexts(
  db: Sql,
  from: number,
  to: number,
  verifier: ChainVerifier,
  parallel: boolean,
): Promise<ChainVerification> {
  const pool = HashPool.start(HASH_POOL, parallel, true);
  try {
    await pool.each(
      readStoredEntries(db, from, to),
      (batch) =>
        pool.run(
          'bytes',
          batch.map((entry) => entry.bytes),
        ),
      (batch, hashes) =>
        batch.forEach(({ event }, i) => {
          // A mismatch is left to the verifier, which rebuilds the canonical JSON before it calls the entry modified.
          if (hashes[i] === event.hash) event.entryHash = hashes[i];
          verifier.push(event);
        }),
    );
  } finally {
    await pool.close();
  }
  return verifier.result();
}

/**
 * Positions per range a verification reads: one query's worth. 500 rather than 2,000: a quarter of
 * the query and of the batch checked at once halved a concurrent sale's p99 (docs/benchmarks.md).
 */
const RANGE = 500;

/**
 * A verification as a worker thread is given it: the options as they cross threads (a KeyObject
 * does; a Buffer arrives as a Uint8Array, and a frontier is sent as its state).
 */
export interface ThreadVerification {
  url: string;
  from: number;
  to: number;
  options: Omit<VerifierOptions, 'treeBefore' | 'writerKey'> & {
    treeBefore?: ReturnType<MerkleFrontier['state']>;
    writerKey?: Uint8Array;
  };
}

/**
 * The `verify` task of a worker thread: has threads of its own read range after range, each row
 * hashed by the database (`readHashedRange`), and checks each in turn on this thread, the one that
 * holds the chain. Null when the verifier wants an entry's texts that were not read (around a
 * break): the caller then verifies with every entry's texts.
 */
async function verifyStored(
  db: Sql,
  { url, from, to, options: { treeBefore, writerKey, ...options } }: ThreadVerification,
): Promise<ChainVerification | null> {
  const verifier = new ChainVerifier({
    ...options,
    treeBefore: treeBefore && MerkleFrontier.of(treeBefore.size, (level) => Buffer.from(treeBefore.peaks[level]!)),
    writerKey: writerKey && Buffer.from(writerKey),
  });
  // Threads of their own read and hash the ranges, every core's while the service takes no
  // requests, one beside its sales, and rest while it takes them (HashPool.active, .taken).
  const pool = HashPool.start(STORED_POOL, true, true, availableParallelism());
  try {
    await pool.each(
      storedRanges(db, from, to, RANGE),
      (range) => pool.run('range', { url, ...range }),
      (_, range) => hashedEntries(range).forEach((e) => verifier.push(e)),
    );
  } catch (error) {
    if (error instanceof ObjectsNotReadError) return null;
    throw error;
  } finally {
    await pool.close();
  }
  return verifier.result();
}

/** The `range` task: the log from `from` to `to` read and hashed on this thread's connection, as its columns. */
async function readRange({ url, from, to }: { url: string; from: number; to: number }): Promise<HashedRange> {
  return readHashedRange(await connection(url), from, to, TEXTS_READ);
}

/** The entries whose data a verifier reads in a sound log: checkpoints (a sale's references come with it). */
const TEXTS_READ = [CHECKPOINT_EVENT_TYPE];

/** This thread's connection to the log, opened by the first task that reads it. */
const connections = new Map<string, Promise<Sql>>();

function connection(url: string): Promise<Sql> {
  let db = connections.get(url);
  if (!db) {
    // Loaded by the first `verify`: a thread that only hashes opens no connection.
    db = import('../event-store/pg-database').then(({ PgDatabase }) => new PgDatabase(url));
    connections.set(url, db);
  }
  return db;
}

/**
 * The package's hashing tasks and the whole check of the log from `from` to `to`, range after
 * range: only its answer goes back to the caller's thread.
 */
export const STORED_TASKS = {
  ...HASH_TASKS,
  verify: async (input: ThreadVerification) => verifyStored(await connection(input.url), input),
  range: readRange,
};

/**
 * Run by this module's built sibling, stored-verification.worker.ts: from sources (ts-jest), the one
 * in dist/, which `npm run build` made.
 */
export const STORED_POOL: PoolTasks<typeof STORED_TASKS> = {
  tasks: STORED_TASKS,
  workerFile: join(
    extname(__filename) === '.ts'
      ? join(projectRoot(__dirname), 'dist', relative(projectRoot(__dirname), __dirname))
      : __dirname,
    'stored-verification.worker.js',
  ),
};
