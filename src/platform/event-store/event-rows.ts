import { entryOf, type EventRow } from '@crcs/tlog';
import type { StoredEvent } from './event-store.port';

export const EVENT_COLUMNS =
  'position, entry_id, stream_id, stream_revision, event_type, data, metadata, recorded_at, prev_hash, hash';

export function toStoredEvent(row: EventRow): StoredEvent {
  // The metadata is as the service wrote it: EventMetadata.
  return entryOf(row, row.recorded_at.toISOString()) as StoredEvent;
}
