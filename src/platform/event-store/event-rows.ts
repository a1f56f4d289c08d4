import type { StoredEvent } from './event-store.port';

/**
 * A row of `events` as the driver returns it. These are the names docs/design.md gives the fields, the
 * names the hash covers and the names an export line carries.
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

export const EVENT_COLUMNS =
  'position, entry_id, stream_id, stream_revision, event_type, data, metadata, recorded_at, prev_hash, hash';

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

export function toStoredEvent(row: EventRow): StoredEvent {
  // The metadata is as the service wrote it: EventMetadata.
  return entryOf(row, row.recorded_at.toISOString()) as StoredEvent;
}
