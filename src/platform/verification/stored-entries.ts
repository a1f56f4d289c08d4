import {
  checkedEntries,
  type CheckedEntries,
  type CheckedLine,
  entriesOf,
  sha256Hex,
  type VerifiableEntry,
  entryBytes,
  entryHash,
  entryOf,
  entryReferences,
  type EventRow,
  LazyEntry,
  SALE_ENTRY_TYPE,
} from '@crcs/tlog';
import type { Sql } from '../event-store/sql';

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

/** A row with its objects as JSON text and its time as ISO text (`Date.toISOString`), formatted by the query: parsing a million dates is most of a read. */
type TextRow = Omit<EventRow, 'position' | 'data' | 'metadata' | 'recorded_at'> & {
  position: string;
  data: string;
  metadata: string;
  recorded_at: string;
  writer_mac: string | null;
};

const RECORDED_AT = `to_char(recorded_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** Large enough that a round trip is small beside the hashing, small enough to stay flat in memory. */
const BATCH = 2000;

/**
 * The log from `from` to `to` (inclusive) as stored, a batch at a time: whatever its length, only
 * the batches the caller holds are in memory.
 */
export async function* readStoredEntries(db: Sql, from: number, to: number): AsyncGenerator<StoredEntry[]> {
  for (let next = from; next <= to;) {
    const rows = await db.query<TextRow>(
      `select position, entry_id, stream_id, stream_revision, event_type, data::text as data, metadata::text as metadata, ${RECORDED_AT} as recorded_at, prev_hash, hash, writer_mac ` +
        'from events where position >= $1 and position <= $2 order by position limit $3',
      [next, to, BATCH],
    );
    if (rows.length === 0) return;
    yield rows.map(toStoredEntry);
    next = Number(rows[rows.length - 1].position) + 1;
  }
}

/**
 * `entryBytes` of a row, written by the database: the same escapes as `canonicalJson` for every
 * text PostgreSQL can hold, and `to_json` of a `char(64)` keeps its padding as the driver does.
 * Were they ever to differ, the row would only fail to match, and its thread would hash it.
 */
const STORED_BYTES =
  `'{"data":' || data::text || ',"entry_id":' || to_json(entry_id::text)::text || ',"event_type":' || to_json(event_type)::text || ` +
  `',"metadata":' || metadata::text || ',"position":' || position::text || ',"prev_hash":' || to_json(prev_hash)::text || ` +
  `',"recorded_at":' || to_json(${RECORDED_AT})::text || ',"stream_id":' || to_json(stream_id)::text || ` +
  `',"stream_revision":' || stream_revision::text || '}'`;

/**
 * The ranges of `size` stored entries, cut where the rows are: positions are dense in a sound log,
 * but a tampered one may have gaps of any length.
 */
export async function* storedRanges(
  db: Sql,
  from: number,
  to: number,
  size: number,
): AsyncGenerator<{ from: number; to: number }> {
  const starts = await db.query<{ position: string }>(
    'select position from (select position, row_number() over (order by position) as n from events where position >= $1 and position <= $2) as p ' +
      'where n % $3 = 1 order by position',
    [from, to, size],
  );
  for (let i = 0; i < starts.length; i++)
    yield { from: Number(starts[i].position), to: i + 1 < starts.length ? Number(starts[i + 1].position) - 1 : to };
}

/**
 * Whether a row's texts are read: an event of one of the types asked for (`$3`), or a sale whose
 * data may name an entry (`$4`): a key of that name, or an escape that could spell one.
 */
const TEXTS_WANTED = `(event_type = any($3::text[]) or (event_type = $4 and (strpos(data::text, '_entry"') > 0 or strpos(data::text, '\\') > 0)))`;

/**
 * The log from `from` to `to`, each row's stored bytes hashed by the database server as it reads
 * them: it sends a few hundred bytes per row instead of the texts, whose decoding into strings
 * was most of a verification's time. The SHA-256 is PostgreSQL's, over the very bytes the row
 * holds: the service trusts its server for the rows already, and a match still has to be the
 * row's own hash. Each entry comes with its `entryHash`; its texts only where its bytes do not
 * hash to its hash, or for an event of one of `textsOfTypes` (reading any other's objects throws
 * `ObjectsNotReadError`). A sale comes with the members of its data that name entries
 * (`references`), cut from its data text, which is read only when it may hold one (TEXTS_WANTED):
 * the rest of a sale's data, most of a verification's time when it was parsed, is never built.
 */
export async function readHashedRange(
  db: Sql,
  from: number,
  to: number,
  textsOfTypes: readonly string[],
): Promise<HashedRange> {
  const rows = await db.query<
    Omit<TextRow, 'data' | 'metadata'> & { hashed: boolean; data: string | null; metadata: string | null }
  >(
    `select position, entry_id, stream_id, stream_revision, event_type, ${RECORDED_AT} as recorded_at, prev_hash, hash, writer_mac, ` +
      `encode(pg_catalog.sha256(convert_to(${STORED_BYTES}, 'UTF8')), 'hex') = hash::text as hashed, ` +
      'case when wanted then data::text end as data, case when wanted then metadata::text end as metadata ' +
      // Decided once a row for both texts: `offset 0` keeps the subquery from being folded into each.
      `from events, lateral (select ${TEXTS_WANTED} as wanted offset 0) as texts where position >= $1 and position <= $2 order by position`,
    [from, to, textsOfTypes, SALE_ENTRY_TYPE],
  );
  // Rows that do not match are rare (edited, or older than canonical texts): their texts in one more query.
  const unmatched = rows.filter((row) => !row.hashed && row.data === null).map((row) => row.position);
  const texts = new Map<string, { data: string; metadata: string }>();
  if (unmatched.length > 0) {
    const found = await db.query<Pick<TextRow, 'position' | 'data' | 'metadata'>>(
      'select position, data::text as data, metadata::text as metadata from events where position = any($1::bigint[])',
      [unmatched],
    );
    for (const row of found) texts.set(row.position, { data: row.data, metadata: row.metadata });
  }
  const objects = rows.map((row) =>
    row.data === null ? (texts.get(row.position) ?? null) : { data: row.data, metadata: row.metadata! },
  );
  const entries = rows.map((row, i): CheckedLine => {
    const own = objects[i];
    const fields = entryOf(row, row.recorded_at);
    // Its data not read, a sound sale names no entry: it has no key that could.
    const references =
      row.event_type !== SALE_ENTRY_TYPE || !row.hashed
        ? undefined
        : own === null
          ? '{}'
          : entryReferences(Buffer.from(own.data));
    return {
      ...fields,
      writerMac: row.writer_mac ?? undefined,
      references,
      entryHash: row.hashed ? row.hash : hashedAsStored(new LazyEntry(fields, own ?? undefined), own),
    };
  });
  return { entries: checkedEntries(entries), objects };
}

/** A range of the log as `readHashedRange` read it: its entries, and the texts of those whose texts were read. */
export interface HashedRange {
  entries: CheckedEntries;
  objects: ({ data: string; metadata: string } | null)[];
}

/** The entries of a range read by `readHashedRange`, on whichever thread it was read. */
export const hashedEntries = ({ entries, objects }: HashedRange): VerifiableEntry[] =>
  entriesOf(entries, (i) => objects[i] ?? undefined);

/**
 * The hash of a row whose bytes, as the database wrote them, do not match its hash: as the verifier
 * would take it, the stored bytes, else the canonical JSON rebuilt (a row written before the texts
 * were kept canonical). Gone between the two queries, it has no texts: a hash that cannot match
 * sends the verifier for them, and the log is read again.
 */
function hashedAsStored(event: LazyEntry, own: { data: string; metadata: string } | null): string {
  if (!own) return '';
  const stored = sha256Hex(entryBytes(event, own.data, own.metadata));
  return stored === event.hash ? stored : entryHash(event);
}

function toStoredEntry(row: TextRow): StoredEntry {
  const event = new LazyEntry(
    { ...entryOf(row, row.recorded_at), writerMac: row.writer_mac },
    { data: row.data, metadata: row.metadata },
  );
  return { event, bytes: entryBytes(event, row.data, row.metadata) };
}

/** Whether the entry hashes to its stored hash: its stored bytes, else (an older row) its canonical JSON rebuilt. */
export function matchesStoredHash({ event, bytes }: StoredEntry): boolean {
  return sha256Hex(bytes) === event.hash || entryHash(event) === event.hash;
}
