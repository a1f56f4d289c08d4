import type { EventRow } from './event-rows';
import type { StoredEvent } from './event-store.port';

/**
 * One line of the NDJSON export (`GET /admin/audit-logs/export`): an entry with exactly the fields
 * its hash covers, named as DESIGN.md names them (the columns of `events`), plus the hash. What the
 * offline verifier reads.
 */
export type ExportedEntry = Omit<EventRow, 'position' | 'recorded_at'> & { position: number; recorded_at: string };

export function toExportLine(e: StoredEvent): string {
  const entry: ExportedEntry = {
    position: e.position,
    entry_id: e.entryId,
    stream_id: e.streamId,
    stream_revision: e.streamRevision,
    event_type: e.type,
    data: e.data,
    metadata: e.metadata,
    recorded_at: e.recordedAt,
    prev_hash: e.prevHash,
    hash: e.hash,
  };
  return `${JSON.stringify(entry)}\n`;
}

/** Throws a message naming the first field that is missing or of the wrong type. */
export function fromExportLine(line: string): StoredEvent {
  const value: unknown = JSON.parse(line);
  if (!isObject(value)) throw new Error('not a JSON object');
  return {
    position: field(value, 'position', Number.isSafeInteger),
    entryId: field(value, 'entry_id', isString),
    streamId: field(value, 'stream_id', isString),
    streamRevision: field(value, 'stream_revision', Number.isSafeInteger),
    type: field(value, 'event_type', isString),
    data: field(value, 'data', isObject),
    metadata: field(value, 'metadata', isObject),
    recordedAt: field(value, 'recorded_at', isString),
    prevHash: field(value, 'prev_hash', isString),
    hash: field(value, 'hash', isString),
  };
}

function field<T>(entry: Record<string, unknown>, name: keyof ExportedEntry, ok: (v: unknown) => boolean): T {
  if (!ok(entry[name])) throw new Error(`field ${name} is missing or of the wrong type`);
  return entry[name] as T;
}

const isString = (v: unknown): v is string => typeof v === 'string';

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
