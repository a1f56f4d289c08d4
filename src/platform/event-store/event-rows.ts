import type { StoredEvent } from './event-store.port';

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

export function toStoredEvent(row: EventRow): StoredEvent {
  return {
    position: Number(row.position),
    entryId: row.entry_id,
    streamId: row.stream_id,
    streamRevision: row.stream_revision,
    type: row.event_type,
    data: row.data,
    metadata: row.metadata as StoredEvent['metadata'],
    recordedAt: row.recorded_at.toISOString(),
    prevHash: row.prev_hash,
    hash: row.hash,
  };
}
