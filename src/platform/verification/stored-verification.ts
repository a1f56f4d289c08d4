import { HashPool, connection, entriesOf } from './hash-pool';
import { ChainVerifier, type ChainVerification, type VerifierOptions } from './chain-verifier';
import { ObjectsNotReadError } from './lazy-entry';
import { MerkleFrontier } from '../event-store/merkle-tree';
import type { Database, Sql } from '../event-store/sql';
import { readStoredEntries } from './stored-entries';

/** From this many entries the reading and hashing are spread over worker threads. */
const PARALLEL_FROM = 20_000;

/**
 * Positions per task of a thread: one query's worth. 500 rather than 2,000: a quarter of the query
 * and of the batch the caller checks at once halved a concurrent sale's p99 (docs/benchmarks.md).
 */
const RANGE = 500;

/**
 * Verifies the log from `from` to `to` as stored. In parallel, the whole check runs on a worker
 * thread: it reads position ranges on a connection of its own, hashes them, checks the chain and
 * sends back only the answer, so that the event loop answering sales beside it neither decodes
 * nor collects an object per entry (docs/benchmarks.md, issue 33). The data of an entry is read
 * only for a checkpoint or a row whose bytes do not hash to its hash; if the verifier wants any
 * other's (around a break), the log is verified again with every entry's texts, so a broken log
 * gives the very same answer.
 */
export async function verifyStoredLog(
  db: Database | Sql,
  from: number,
  to: number,
  options: VerifierOptions = {},
  parallel = to - from + 1 >= PARALLEL_FROM,
): Promise<ChainVerification> {
  if (parallel && 'url' in db) {
    const pool = HashPool.start(true, true, 1);
    try {
      const { treeBefore, ...rest } = options;
      const verified = await pool.run('verify', { url: db.url, from, to, options: { ...rest, treeBefore: treeBefore?.state() } });
      if (verified) return verified;
    } finally {
      await pool.close();
    }
  }
  return withTexts(db, from, to, new ChainVerifier(options), parallel);
}

/**
 * A verification as a worker thread is given it: the options as they cross threads (a KeyObject
 * does; a Buffer arrives as a Uint8Array, and a frontier is sent as its state).
 */
export interface ThreadVerification {
  url: string;
  from: number;
  to: number;
  options: Omit<VerifierOptions, 'treeBefore' | 'writerKey'> & { treeBefore?: ReturnType<MerkleFrontier['state']>; writerKey?: Uint8Array };
}

/**
 * The `verify` task of a worker thread: reads and hashes range after range, as the `stored` task
 * does, and checks each in turn. Null when the verifier wants an entry's texts that were not read
 * (around a break): the caller then verifies with every entry's texts.
 */
export async function verifyOnThisThread({ url, from, to, options: { treeBefore, writerKey, ...options } }: ThreadVerification): Promise<ChainVerification | null> {
  const verifier = new ChainVerifier({
    ...options,
    treeBefore: treeBefore && MerkleFrontier.of(treeBefore.size, (level) => Buffer.from(treeBefore.peaks[level]!)),
    writerKey: writerKey && Buffer.from(writerKey),
  });
  // Inline on this thread, it still rests while the service takes requests (HashPool.taken).
  const pool = HashPool.start(false, true);
  try {
    await pool.each(
      ranges(await connection(url), from, to),
      'stored',
      (range) => ({ url, ...range }),
      (_, checked) => entriesOf(checked, (i) => checked.objects[i]).forEach((e) => verifier.push(e)),
    );
  } catch (error) {
    if (error instanceof ObjectsNotReadError) return null;
    throw error;
  }
  return verifier.result();
}

/**
 * The ranges of RANGE stored entries, cut where the rows are: positions are dense in a sound log,
 * but a tampered one may have gaps of any length.
 */
async function* ranges(db: Sql, from: number, to: number): AsyncGenerator<{ from: number; to: number }> {
  const starts = await db.query<{ position: string }>(
    'select position from (select position, row_number() over (order by position) as n from events where position >= $1 and position <= $2) as p ' +
      'where n % $3 = 1 order by position',
    [from, to, RANGE],
  );
  for (let i = 0; i < starts.length; i++) yield { from: Number(starts[i].position), to: i + 1 < starts.length ? Number(starts[i + 1].position) - 1 : to };
}

/** Each entry read on this thread with its texts and hashed as stored on worker threads, while the next batch is read. */
async function withTexts(db: Sql, from: number, to: number, verifier: ChainVerifier, parallel: boolean): Promise<ChainVerification> {
  const pool = HashPool.start(parallel, true);
  try {
    await pool.each(
      readStoredEntries(db, from, to),
      'bytes',
      (batch) => batch.map((entry) => entry.bytes),
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
