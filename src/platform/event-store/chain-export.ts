import { sha256Hex } from '../sha256';
import type { EventRow } from './event-rows';
import { canonicalEntry, entryHash } from './hash-chain';
import type { StoredEvent } from './event-store.port';

/**
 * One line of the NDJSON export (`GET /admin/audit-logs/export`): an entry with exactly the fields
 * its hash covers, named as DESIGN.md names them (the columns of `events`), plus the hash. What the
 * offline verifier reads.
 */
export type ExportedEntry = Omit<EventRow, 'position' | 'recorded_at'> & { position: number; recorded_at: string };

/**
 * The line is the entry's canonical JSON, the very bytes its hash covers, with `hash` added as its
 * last member: a verifier hashes the line up to that member instead of re-writing the entry.
 */
export function exportLine(bytes: string, hash: string): string {
  return `${bytes.slice(0, -1)},"hash":${JSON.stringify(hash)}}\n`;
}

export const toExportLine = (e: StoredEvent): string => exportLine(canonicalEntry(e), e.hash);

/** `,"hash":"<64 hex digits>"}` */
const HASH_MEMBER_LENGTH = 75;

/** The bytes a line's hash covers if it was written by `exportLine` (any other JSON layout gets a rebuild). */
function hashedBytes(line: string): string {
  return `${line.slice(0, line.length - HASH_MEMBER_LENGTH)}}`;
}

/** An export line's fields but its objects, and the hash of the entry it holds at its stored position. */
export type CheckedLine = Omit<StoredEvent, 'data' | 'metadata'> & { entryHash: string };

/**
 * Reads a line (throwing as `fromExportLine` does) and hashes the entry: the line's own bytes when
 * they hash to the stored hash, else the entry's canonical JSON rebuilt (an older layout, or an
 * edited line, whose break the verifier then reports).
 */
export function checkExportLine(line: string): CheckedLine {
  const { data, metadata, ...fields } = fromExportLine(line);
  const own = sha256Hex(hashedBytes(line));
  return { ...fields, entryHash: own === fields.hash ? own : entryHash({ ...fields, data, metadata }) };
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
