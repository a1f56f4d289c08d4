import type { ChainHead, EventStore, StoredEvent } from '../platform/event-store/event-store.port';
import type { Sql } from '../platform/event-store/sql';

const BATCH = 1000;

/**
 * The head the store records and the last position stored, read in one statement so that they
 * agree. They differ only when rows were added behind the store's back: reading up to the last
 * stored position, not the head, is what lets the verifier see them.
 */
export async function logExtent(db: Sql): Promise<{ head: ChainHead; lastPosition: number }> {
  const [row] = await db.query<{ position: string; hash: string; last: string | null }>(
    'select position, hash, (select max(position) from events) as last from event_store_head where id',
  );
  return { head: { position: Number(row.position), hash: row.hash }, lastPosition: Number(row.last ?? 0) };
}

/**
 * The log from `from` to `to` (inclusive), a batch at a time: whatever its length, only one batch
 * is in memory, and other requests are served between batches.
 */
export async function* readLog(store: EventStore, from: number, to: number): AsyncGenerator<StoredEvent[]> {
  for (let next = from; next <= to; ) {
    const batch = (await store.readAll(next, Math.min(BATCH, to - next + 1))).filter((e) => e.position <= to);
    if (batch.length === 0) return;
    yield batch;
    next = batch[batch.length - 1].position + 1;
  }
}
