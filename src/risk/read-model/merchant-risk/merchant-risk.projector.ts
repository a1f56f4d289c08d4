import type { StoredEvent } from '../../../platform/event-store/event-store.port';
import type { Sql } from '../../../platform/event-store/sql';
import { directionOf, type RoundingActivity, type RoundingCell } from '../../rounding-analysis';
import { roundCents } from '../../../rules/rounding-engine';
import type { TransactionRecordedData } from '../../../transactions/transaction.events';
import { addToRows, type CounterChange } from '../../../platform/projections/counters';
import type { Projector } from '../../../platform/projections/projector';

/**
 * Per merchant, what its rounding analysis needs: sale counters, and its cash sales counted by the
 * rule mode in force, the penny ending of the cash before rounding and the way it was rounded, from
 * which both honest expectations follow (src/risk/rounding-analysis.ts). Scoring a sale reads
 * the transaction list, not these counts.
 */
export const merchantRiskProjector: Projector = {
  name: 'merchant-risk',
  version: 1,
  handles: ['TransactionRecorded'],

  async reset(tx: Sql): Promise<void> {
    await tx.query('drop table if exists rm_risk_sales');
    await tx.query('drop table if exists rm_risk_cash_roundings');
    await tx.query(
      `create table rm_risk_sales (
         merchant_id text primary key,
         sales int not null,
         cash_sales int not null,
         explicit_mode_sales int not null,
         favoured_sales int not null,
         favoured_cents bigint not null,
         net_rounding_cents bigint not null,
         last_position bigint not null
       )`,
    );
    await tx.query(
      `create table rm_risk_cash_roundings (
         merchant_id text not null,
         rule_mode text not null,
         ending smallint not null,
         direction text not null,
         sales int not null,
         last_position bigint not null,
         primary key (merchant_id, rule_mode, ending, direction)
       )`,
    );
  },

  async apply(events: readonly StoredEvent[], tx: Sql): Promise<void> {
    const sales: CounterChange[] = [];
    const cashRoundings: CounterChange[] = [];
    for (const { data, position } of events) {
      const { merchant_id: merchantId, rule, calculation } = data as TransactionRecordedData;
      const { cash_portion_cents: cash, rounding_delta_cents: delta } = calculation;
      const isCash = cash > 0;
      // What the applied mode collected beyond the rule's own mode: 0 unless an explicit mode was sent.
      const gain = delta - (roundCents(cash, rule.rounding_mode) - cash);
      sales.push({
        key: { merchant_id: merchantId },
        counters: {
          sales: 1,
          cash_sales: Number(isCash),
          explicit_mode_sales: Number(isCash && calculation.mode_source === 'explicit'),
          favoured_sales: Number(gain > 0),
          favoured_cents: Math.max(gain, 0),
          net_rounding_cents: delta,
        },
        position,
      });
      if (isCash) {
        const key = {
          merchant_id: merchantId,
          rule_mode: rule.rounding_mode,
          ending: cash % 10,
          direction: directionOf(delta),
        };
        cashRoundings.push({ key, counters: { sales: 1 }, position });
      }
    }
    await addToRows(tx, 'rm_risk_sales', sales);
    await addToRows(tx, 'rm_risk_cash_roundings', cashRoundings);
  },
};

interface SalesRow {
  merchant_id: string;
  sales: number;
  cash_sales: number;
  explicit_mode_sales: number;
  favoured_sales: number;
  favoured_cents: string;
  net_rounding_cents: string;
}

/** The rounding activity of one merchant, or of every merchant (`null`), by merchant id. */
export async function roundingActivity(sql: Sql, merchantId: string | null): Promise<Map<string, RoundingActivity>> {
  const sales = await sql.query<SalesRow>('select * from rm_risk_sales where ($1::text is null or merchant_id = $1)', [
    merchantId,
  ]);
  const cells = await sql.query<RoundingCell & { merchant_id: string }>(
    `select merchant_id, rule_mode, ending, direction, sales from rm_risk_cash_roundings
     where ($1::text is null or merchant_id = $1) order by merchant_id, rule_mode, ending, direction`,
    [merchantId],
  );
  const activity = new Map<string, RoundingActivity>(
    sales.map((row) => [
      row.merchant_id,
      {
        sales: row.sales,
        cash_sales: row.cash_sales,
        net_rounding_cents: Number(row.net_rounding_cents),
        explicit_mode_sales: row.explicit_mode_sales,
        favoured_sales: row.favoured_sales,
        favoured_cents: Number(row.favoured_cents),
        cells: [],
      },
    ]),
  );
  for (const { merchant_id: merchantId, ...cell } of cells) activity.get(merchantId)?.cells.push(cell);
  return activity;
}
