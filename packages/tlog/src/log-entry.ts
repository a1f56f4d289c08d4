/** An entry as it reads back from the log; every field here is covered by `hash` (entry-hash.ts). */
export interface LogEntry {
  position: number;
  entryId: string;
  streamId: string;
  streamRevision: number;
  type: string;
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
  recordedAt: string;
  prevHash: string;
  hash: string;
}

/** The last entry of a log: its position and its hash. */
export interface ChainHead {
  position: number;
  hash: string;
}

/**
 * An entry under the names docs/design.md gives its fields: a row of the log's `events` table as
 * the driver returns it, the names the hash covers and the names an export line carries.
 */
export interface EventRow {
  position: string | number;
  entry_id: string;
  stream_id: string;
  stream_revision: number;
  event_type: string;
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
  recorded_at: Date;
  prev_hash: string;
  hash: string;
}

/** A row whose objects may still be JSON text (or not read), with its time already as ISO text. */
type RowOf<Data, Metadata> = Omit<EventRow, 'data' | 'metadata' | 'recorded_at'> & { data: Data; metadata: Metadata };

/**
 * The entry a row holds, its objects as the row has them: the one place where the log's column
 * names meet the entry's field names. `recordedAt` as `Date.toISOString` writes it.
 */
export function entryOf<Data, Metadata>(row: RowOf<Data, Metadata>, recordedAt: string) {
  return {
    position: Number(row.position),
    entryId: row.entry_id,
    streamId: row.stream_id,
    streamRevision: row.stream_revision,
    type: row.event_type,
    data: row.data,
    metadata: row.metadata,
    recordedAt,
    prevHash: row.prev_hash,
    hash: row.hash,
  };
}
