import type { ChainHead } from '@crcs/tlog';
import type { Sql } from '../platform/event-store/sql';

/** The media type the log's NDJSON answers are sent as (before `; charset=utf-8`): the export and the witness file. */
export const NDJSON = 'application/x-ndjson';

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
