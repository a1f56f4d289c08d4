import { Inject, Injectable } from '@nestjs/common';
import { CoalescingQueue } from '../../platform/coalescing-queue';
import { DATABASE, prepared, type Database } from '../../platform/event-store/sql';
import { BIAS_WINDOW, VELOCITY_WINDOW_MS, type MerchantHistory } from '../../rules/fraud-score';
import type { RoundingPolicy } from '../../rules/rounding-policy';
import { SYMMETRIC_MODES } from '../record-sale';
import type { EntryRef } from '@crcs/tlog';
import { roundingPolicyStream } from '../rounding-policy.events';
import { transactionListProjector } from './transaction-list.projector';

export interface SaleInputsQuery {
  merchantId: string;
  cashierId: string | null;
  /** The instant of the sale being scored. */
  at: Date;
}

export interface SaleInputs {
  history: MerchantHistory;
  /** The log position rm_transactions reflected when the history was read from it. */
  history_position: number;
  rounding_policy: RoundingPolicy;
  /** The entry that set the policy; null when the merchant never set one (the rule's). */
  policy_entry: EntryRef | null;
}

/**
 * For each sale, what a sale needs read before it is decided: for fraud scoring, the merchant's
 * recent sales (each read through its own partial index, made for it in the transaction-list
 * projector's reset) and the position that read model reflected, in the same snapshot (the
 * projector commits its rows with its checkpoint); and the merchant's rounding policy, from the last entry of its stream in the
 * log (never from rm_rounding_policies, so a row written there by SQL is never applied). Prepared, so the window is written into
 * the text: a generic plan then costs the real limit, not a guess of a tenth of the rows.
 */
const READ = prepared(`select
   (select array_agg(delta order by created_at desc, position desc) from (
      select rounding_delta_cents as delta, created_at, position from rm_transactions
      where merchant_id = q.merchant_id and type = 'SALE' and rounding_delta_cents <> 0 and cash_rounding_mode = any($4)
      order by created_at desc, position desc limit ${BIAS_WINDOW}) recent) as deltas,
   (select count(*)::int from rm_transactions
    where q.cashier_id is not null and merchant_id = q.merchant_id and cashier_id = q.cashier_id and type = 'SALE' and created_at > q.since) as cashier_sales,
   (select jsonb_build_object('rounding_policy', data->'rounding_policy', 'position', position, 'hash', hash) from events
    where stream_id = $5 || q.merchant_id order by stream_revision desc limit 1) as policy,
   (select position from projection_checkpoints where name = $6) as history_position
 from unnest($1::text[], $2::text[], $3::timestamptz[]) with ordinality as q(merchant_id, cashier_id, since, n)
 order by q.n`);

/**
 * Reads every sale's inputs, one statement at a time (a CoalescingQueue): the sales that arrive
 * while a read is out wait for it and are then read together, in one statement. Alone, a sale is
 * read at once; under load a round trip serves many (it was one per sale, the most frequent
 * statement the service sent). Each sale still sees what was committed when its statement ran, as
 * it would have after waiting for a pooled connection.
 */
@Injectable()
export class SaleInputsReader {
  private readonly queue = new CoalescingQueue((queries: SaleInputsQuery[]) => this.readAll(queries));

  constructor(@Inject(DATABASE) private readonly db: Database) {}

  read(query: SaleInputsQuery): Promise<SaleInputs> {
    return this.queue.push(query);
  }

  private async readAll(queries: SaleInputsQuery[]): Promise<SaleInputs[]> {
    const rows = await this.db.query<{
      deltas: string[] | null;
      cashier_sales: number;
      policy: { rounding_policy: RoundingPolicy; position: number; hash: string } | null;
      history_position: string | null;
    }>(READ, [
      queries.map((query) => query.merchantId),
      queries.map((query) => query.cashierId),
      queries.map((query) => new Date(query.at.getTime() - VELOCITY_WINDOW_MS).toISOString()),
      SYMMETRIC_MODES,
      roundingPolicyStream(''),
      transactionListProjector.name,
    ]);
    return queries.map((query, i) => {
      const { policy } = rows[i];
      return {
        history: {
          recent_symmetric_deltas: (rows[i].deltas ?? []).map(Number),
          cashier_sales_in_window: query.cashierId === null ? null : rows[i].cashier_sales,
        },
        history_position: Number(rows[i].history_position ?? 0),
        rounding_policy: policy?.rounding_policy ?? 'rule',
        policy_entry: policy && { position: policy.position, hash: policy.hash },
      };
    });
  }
}
