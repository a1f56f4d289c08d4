import type { Sql } from '../../src/platform/event-store/sql';
import type { ChainEntry } from '../../packages/tlog/bench/sale-entries';

const { writerMac } = require('@crcs/tlog') as typeof import('@crcs/tlog');

/** One multi-row insert of the chunk into `events`; with `writerKey`, each row carries its writer authenticator, as the service writes it. */
export async function insertEntries(sql: Sql, chunk: readonly ChainEntry[], writerKey?: Buffer): Promise<void> {
  const params: unknown[] = [];
  const tuples = chunk.map((e, i) => {
    const f = e.fields;
    params.push(
      f.position,
      f.entryId,
      f.streamId,
      f.streamRevision,
      f.type,
      e.dataJson,
      e.metadataJson,
      f.recordedAt,
      f.prevHash,
      e.hash,
      writerKey ? writerMac(writerKey, e.hash) : null,
    );
    return `(${Array.from({ length: 11 }, (_, k) => `$${i * 11 + k + 1}`).join(', ')})`;
  });
  await sql.query(
    `insert into events (position, entry_id, stream_id, stream_revision, event_type, data, metadata, recorded_at, prev_hash, hash, writer_mac) values ${tuples.join(', ')}`,
    params,
  );
}
