import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { StoredEvent } from './event-store.port';

export const GENESIS_HASH = '0'.repeat(64);

export type HashedFields = Omit<StoredEvent, 'hash'>;

/**
 * SHA-256 over the RFC 8785 canonical JSON of the entry, keyed as DESIGN.md names the fields.
 * Callers pass values exactly as they read back from storage (JSON round-tripped, ISO time),
 * so that the writer and any verifier hash the same bytes.
 */
export function entryHash(e: HashedFields): string {
  const canonical = canonicalize({
    position: e.position,
    entry_id: e.entryId,
    event_type: e.type,
    stream_id: e.streamId,
    stream_revision: e.streamRevision,
    data: e.data,
    metadata: e.metadata,
    recorded_at: e.recordedAt,
    prev_hash: e.prevHash,
  });
  if (canonical === undefined) throw new Error('entry cannot be canonicalized');
  return createHash('sha256').update(canonical).digest('hex');
}
