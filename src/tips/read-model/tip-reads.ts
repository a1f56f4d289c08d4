import { type EventRow } from '@crcs/tlog';
import type { StoredEvent } from '../../platform/event-store/event-store.port';
import { EVENT_COLUMNS, toStoredEvent } from '../../platform/event-store/event-rows';
import { prepared, type Sql } from '../../platform/event-store/sql';
import { historyEntry } from '../../transactions/read-model/transaction-view';
import type { TipView } from '../tip.response.dto';
import {
  tipPoolStream,
  tipStream,
  type TipAdjustedData,
  type TipPooledData,
  type TipRecordedData,
} from '../tip.events';
import { TIPS_BEYOND_SALE_FLOOR_CENTS } from './tip-summary';

// What tip commands read from the log itself: the tips read model (tips.projector.ts) follows it after the append.

const STREAM = prepared(`select ${EVENT_COLUMNS} from events where stream_id = $1 order by stream_revision`);
const FIRST_ENTRY = prepared('select data from events where stream_id = $1 and stream_revision = 1');
const POOLED_AFTER = prepared(
  `select t.tip_id, e.data->>'pool_id' as pool_id
   from events e cross join lateral json_to_recordset(e.data->'tips') as t(tip_id text)
   where e.position > $1 and e.event_type = 'TipPooled' and t.tip_id = any($2) order by e.position`,
);
const ADJUSTED_AFTER = prepared(
  `select data from events where stream_id = any($1) and position > $2 and event_type = 'TipAdjusted' order by position`,
);

/**
 * The tip as its stream gives it, the same as the read model's row once it has applied the stream
 * (`findTip`). Its pool is in the pool's stream: `poolId` is the caller's to know.
 */
export async function tipFromLog(sql: Sql, tipId: string, poolId: string | null): Promise<TipView | undefined> {
  const rows = await sql.query<EventRow>(STREAM, [tipStream(tipId)]);
  if (rows.length === 0) return undefined;
  const [recorded, ...adjustments]: StoredEvent[] = rows.map(toStoredEvent);
  const d = recorded.data as TipRecordedData;
  const amountCents =
    adjustments.length === 0 ? d.amount_cents : (adjustments.at(-1)!.data as TipAdjustedData).new_amount_cents;
  return {
    id: d.tip_id,
    merchant_id: d.merchant_id,
    transaction_id: d.transaction_id,
    method: d.method,
    employee_id: d.employee_id,
    employee_name: d.employee_name,
    amount_cents: amountCents,
    original_amount_cents: d.amount_cents,
    exceeds_sale:
      d.sale_total_cents !== undefined && amountCents > Math.max(d.sale_total_cents, TIPS_BEYOND_SALE_FLOOR_CENTS),
    pool_id: poolId,
    created_at: new Date(d.recorded_at).toISOString(),
    auditHash: recorded.hash,
    chain_position: recorded.position,
    history: [recorded, ...adjustments].map(historyEntry),
  };
}

/** The merchant of a pool, from the first entry of its stream. */
export async function poolMerchant(sql: Sql, poolId: string): Promise<string | undefined> {
  const [row] = await sql.query<{ data: TipPooledData }>(FIRST_ENTRY, [tipPoolStream(poolId)]);
  return row?.data.merchant_id;
}

/**
 * What the entries after `after` did to the tips named: the pools that took them and each one's
 * amount after its last adjustment. A command that read the tips read model as of `after` asks it
 * inside its append transaction, under the chain-head lock, where the log holds every entry before
 * its own: the tips are then as the read model had them, changed by these.
 */
export async function tipChangesAfter(
  sql: Sql,
  after: number,
  tipIds: readonly string[],
): Promise<{ pooled: { tip_id: string; pool_id: string }[]; amounts: Map<string, number> }> {
  const pooled = await sql.query<{ tip_id: string; pool_id: string }>(POOLED_AFTER, [after, tipIds]);
  const adjusted = await sql.query<{ data: TipAdjustedData }>(ADJUSTED_AFTER, [tipIds.map(tipStream), after]);
  return { pooled, amounts: new Map(adjusted.map(({ data }) => [data.tip_id, data.new_amount_cents])) };
}
