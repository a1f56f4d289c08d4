import { HashPool } from './hash-pool';
import { ChainVerifier, type ChainVerification, type VerifierOptions } from './chain-verifier';
import type { Database, Sql } from '../event-store/sql';
import { readStoredEntries } from './stored-entries';

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
    const pool = HashPool.start(true, true, 1);
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
  const pool = HashPool.start(parallel, true);
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
