import { sha256Hex } from '../sha256';
import { HashPool } from './chain-hashing';
import type { ChainVerifier, VerifiableEntry } from './chain-verifier';
import { entryBytes, entryHash } from './hash-chain';
import { LazyEntry } from './lazy-entry';
import type { Sql } from './sql';

/** An entry as the log stores it, for verification and export. */
export interface StoredEntry {
  /** Its data and metadata are parsed from the stored texts only when read: verifying rarely needs them. */
  event: VerifiableEntry;
  /**
   * The canonical entry around the stored JSON texts: the bytes hashed at append time, unless the
   * row was edited or written before the texts were kept canonical (then only a rebuild matches).
   */
  bytes: string;
}

interface TextRow {
  position: string;
  entry_id: string;
  stream_id: string;
  stream_revision: number;
  event_type: string;
  data: string;
  metadata: string;
  /** As `Date.toISOString` writes it, formatted by the query: parsing a million dates is most of a read. */
  recorded_at: string;
  prev_hash: string;
  hash: string;
}

/** Large enough that a round trip is small beside the hashing, small enough to stay flat in memory. */
const BATCH = 2000;

/**
 * The log from `from` to `to` (inclusive) as stored, a batch at a time: whatever its length, only
 * the batches the caller holds are in memory.
 */
export async function* readStoredEntries(db: Sql, from: number, to: number): AsyncGenerator<StoredEntry[]> {
  for (let next = from; next <= to; ) {
    const rows = await db.query<TextRow>(
      'select position, entry_id, stream_id, stream_revision, event_type, data::text as data, metadata::text as metadata, ' +
        `to_char(recorded_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as recorded_at, prev_hash, hash ` +
        'from events where position >= $1 and position <= $2 order by position limit $3',
      [next, to, BATCH],
    );
    if (rows.length === 0) return;
    yield rows.map(toStoredEntry);
    next = Number(rows[rows.length - 1].position) + 1;
  }
}

function toStoredEntry(row: TextRow): StoredEntry {
  const event = new LazyEntry(
    {
      position: Number(row.position),
      entryId: row.entry_id,
      streamId: row.stream_id,
      streamRevision: row.stream_revision,
      type: row.event_type,
      recordedAt: row.recorded_at,
      prevHash: row.prev_hash,
      hash: row.hash,
    },
    { data: row.data, metadata: row.metadata },
  );
  return { event, bytes: entryBytes(event, row.data, row.metadata) };
}

/** Whether the entry hashes to its stored hash: its stored bytes, else (an older row) its canonical JSON rebuilt. */
export function matchesStoredHash({ event, bytes }: StoredEntry): boolean {
  return sha256Hex(bytes) === event.hash || entryHash(event) === event.hash;
}

/** From this many entries the hashing is spread over worker threads. */
const PARALLEL_FROM = 20_000;

/**
 * Pushes the log from `from` to `to` into the verifier, each entry hashed as stored on worker
 * threads while the next batch is read; the verifier checks their order on this thread.
 */
export async function verifyStoredLog(db: Sql, from: number, to: number, verifier: ChainVerifier, parallel = to - from + 1 >= PARALLEL_FROM): Promise<void> {
  const pool = HashPool.start(parallel);
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
}
