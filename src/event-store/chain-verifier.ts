import type { StoredEvent } from './event-store.port';
import { GENESIS_HASH, entryHash } from './hash-chain';

export type BreakKind = 'modified' | 'deleted' | 'reordered' | 'inserted';

export interface ChainBreak {
  kind: BreakKind;
  position: number;
  entry_id: string;
  detail: string;
  expected_prev_hash?: string;
  actual_prev_hash?: string;
  expected_hash?: string;
  stored_hash?: string;
}

export interface ChainVerification {
  total_count: number;
  verified_count: number;
  break_count: number;
  breaks: ChainBreak[];
}

/**
 * Checks entries pushed in position order: gap-free positions, each prev_hash equal to the
 * previous entry's hash, each hash recomputed from the stored fields, revisions 1, 2, 3... per
 * stream. Holds one entry and the last revision of each stream, whatever the log's length.
 */
export class ChainVerifier {
  private previous: { position: number; hash: string } = { position: 0, hash: GENESIS_HASH };
  private readonly revisions = new Map<string, number>();
  private total = 0;
  private verified = 0;
  private readonly breaks: ChainBreak[] = [];

  push(e: StoredEvent): void {
    this.total += 1;
    const before = this.breaks.length;
    const expectedPosition = this.previous.position + 1;
    if (e.position !== expectedPosition) {
      this.report(e, e.position > expectedPosition ? 'deleted' : 'reordered', {
        detail: `expected position ${expectedPosition}, found ${e.position}`,
      });
    } else if (e.prevHash !== this.previous.hash) {
      this.report(e, 'modified', {
        detail: 'prev_hash does not match the previous entry',
        expected_prev_hash: this.previous.hash,
        actual_prev_hash: e.prevHash,
      });
    }
    const recomputed = entryHash(e);
    if (recomputed !== e.hash && this.breaks.length === before) {
      this.report(e, 'modified', {
        detail: 'stored hash does not match the entry',
        expected_hash: recomputed,
        stored_hash: e.hash,
      });
    }
    const expectedRevision = (this.revisions.get(e.streamId) ?? 0) + 1;
    if (e.streamRevision !== expectedRevision && this.breaks.length === before) {
      this.report(e, e.streamRevision > expectedRevision ? 'deleted' : 'reordered', {
        detail: `stream ${e.streamId}: expected revision ${expectedRevision}, found ${e.streamRevision}`,
      });
    }
    this.revisions.set(e.streamId, e.streamRevision);
    if (this.breaks.length === before) this.verified += 1;
    this.previous = { position: e.position, hash: e.hash };
  }

  result(): ChainVerification {
    return {
      total_count: this.total,
      verified_count: this.verified,
      break_count: this.breaks.length,
      breaks: this.breaks,
    };
  }

  private report(e: StoredEvent, kind: BreakKind, fields: Omit<ChainBreak, 'kind' | 'position' | 'entry_id'>): void {
    this.breaks.push({ kind, position: e.position, entry_id: e.entryId, ...fields });
  }
}
