import type { AppendTx, BatchWriter } from '../../platform/event-store/event-store.port';
import type { EventRow } from '@crcs/tlog';
import { EVENT_COLUMNS, toStoredEvent } from '../../platform/event-store/event-rows';
import { prepared, type Sql } from '../../platform/event-store/sql';
import { RecordIdTakenError } from '../../platform/ids';
import type { TransactionDetail } from '../transaction.response.dto';
import { findTransaction, transactionListProjector } from './transaction-list.projector';
import { foldTransactions } from './transaction-view';

/** The entries that make a transaction record (a SALE, VOID or REFUND) under `data.transaction_id`. */
const RECORD_EVENTS = ['TransactionRecorded', 'TransactionVoided', 'RefundIssued'];

/**
 * Where the log records transaction $1 (its sale's stream: a VOID or REFUND is appended to it), the
 * stream's last position, and how far rm_transactions has caught up: one statement, one snapshot.
 */
const LOCATE = prepared(`select e.stream_id,
   (select max(s.position) from events s where s.stream_id = e.stream_id) as last,
   (select position from projection_checkpoints where name = $2) as checkpoint
 from events e where e.data->>'transaction_id' = $1 and e.event_type = any($3) order by e.position limit 1`);

const STREAM = prepared(`select ${EVENT_COLUMNS} from events where stream_id = $1 order by stream_revision`);

/**
 * A transaction as the log has it: from rm_transactions when the read model has caught up with the
 * last entry of the transaction's stream, else folded from that stream, as the projector will fold
 * it. So a read right after a write sees it, and a command (inside its append transaction, where
 * its own entry is already in the log) decides and answers from the log, never from a lagging row.
 */
export async function readTransaction(sql: Sql, id: string): Promise<TransactionDetail | undefined> {
  const [found] = await sql.query<{ stream_id: string; last: string; checkpoint: string | null }>(LOCATE, [
    id,
    transactionListProjector.name,
    RECORD_EVENTS,
  ]);
  if (!found) return undefined;
  if (Number(found.checkpoint ?? 0) >= Number(found.last)) {
    const row = await findTransaction(sql, id);
    if (row) return row;
  }
  const stream = await sql.query<EventRow>(STREAM, [found.stream_id]);
  const row = foldTransactions(stream.map(toStoredEvent)).get(id);
  return row && { ...row.detail, history: row.history };
}

/**
 * One statement part for a batch's new records: the first of them whose id the log holds under
 * another entry (one appended before), or another of the batch claims, if any. In the statement that
 * appends the batch, the log read is the one before it, so the batch's own claims are compared among
 * themselves.
 */
const recordIds: BatchWriter<{ id: string; position: number }> = {
  statement(claims, params, when) {
    params.push(
      claims.map((claim) => claim.id),
      claims.map((claim) => claim.position),
      RECORD_EVENTS,
    );
    const [ids, positions, types] = [params.length - 2, params.length - 1, params.length];
    return `select u.id from unnest($${ids}::text[], $${positions}::bigint[]) as u(id, position)
      where ${when} and (exists (select 1 from events e
          where e.data->>'transaction_id' = u.id and e.event_type = any($${types}::text[]) and e.position <> u.position)
        or exists (select 1 from unnest($${ids}::text[], $${positions}::bigint[]) as o(id, position)
          where o.id = u.id and o.position <> u.position))
      limit 1`;
  },
  check(_claims, taken) {
    const [first] = taken as { id: string }[];
    if (first) throw new RecordIdTakenError(first.id);
  },
};

/**
 * Inside the append transaction of a new record at `position`: the log must hold no other record
 * under its freshly drawn id (a VOID or REFUND has no stream of its own to clash on, and a sale's
 * id may be a VOID's). Checked once for the batch; a clash fails it, the batch is written again
 * append by append, only the clashing append fails, and withNewRecordId draws another id.
 */
export function claimRecordId(tx: AppendTx, id: string, position: number): void {
  tx.writeLater(recordIds, { id, position });
}
