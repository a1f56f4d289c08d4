/** GET /analytics/tips, read from the tips read model. */

import type { Sql } from '../../platform/event-store/sql';
import { PAYOUT_METHODS, TIP_METHODS, type PoolMethod, type PoolParticipant, type PoolShare } from '../tip.events';
import type { TipAnalytics, TipMethodTotal, TipOnSale, TipPoolSummary } from '../tip-analytics.response.dto';

/** `$1` of every query: one merchant, or null for all of them. */
export const OF_MERCHANT = '($1::text is null or merchant_id = $1)';

export const cents = (value: string | number | null) => Number(value ?? 0);
/** Integer cents: an average is money too. */
const average = (total: number, count: number) => (count === 0 ? 0 : Math.round(total / count));

/**
 * Tips far beyond their sale (docs/adr/0009-tips.md): a sale's tips, together and after adjustments, above
 * both the sale's own total and this floor. A tip above the whole bill is where point-of-sale terminals
 * ask for a manager's approval; the floor keeps a $5 tip on a $3 coffee out of the list.
 */
export const TIPS_BEYOND_SALE_FLOOR_CENTS = 2000;

/** GET /analytics/tips: tips by method (amounts after adjustments), adjustments, payouts, the newest `limit` pools and sales tipped beyond their total. */
export async function tipAnalytics(sql: Sql, merchantId: string | null, limit: number): Promise<TipAnalytics> {
  const [adjustments] = await sql.query<{ count: number; upward: number; downward: number; net: string | null }>(
    `select count(*)::int as count, (count(*) filter (where new_amount_cents > previous_amount_cents))::int as upward,
       (count(*) filter (where new_amount_cents < previous_amount_cents))::int as downward,
       sum(new_amount_cents - previous_amount_cents) as net
     from rm_tip_adjustments where ${OF_MERCHANT}`,
    [merchantId],
  );
  const [pools] = await sql.query<{
    count: number;
    distributed: number;
    pooled: string | null;
    paid: string | null;
    adjustment: string | null;
  }>(
    `select count(*)::int as count, (count(*) filter (where distributed_at is not null))::int as distributed,
       sum(total_cents) as pooled, sum(total_distributed_cents) as paid, sum(rounding_adjustment_cents) as adjustment
     from rm_tip_pools where ${OF_MERCHANT}`,
    [merchantId],
  );
  const recent = await sql.query<PoolRow>(
    `select * from rm_tip_pools where ${OF_MERCHANT} order by created_at desc, chain_position desc limit $2`,
    [merchantId, limit],
  );
  return {
    tips: await totalsByMethod(sql, 'rm_tips', 'method', TIP_METHODS, merchantId),
    adjustments: {
      count: adjustments.count,
      upward_count: adjustments.upward,
      downward_count: adjustments.downward,
      net_change_cents: cents(adjustments.net),
    },
    payouts: await totalsByMethod(sql, 'rm_tip_payouts', 'payout_method', PAYOUT_METHODS, merchantId),
    pools: {
      count: pools.count,
      open_count: pools.count - pools.distributed,
      distributed_count: pools.distributed,
      total_pooled_cents: cents(pools.pooled),
      total_distributed_cents: cents(pools.paid),
      rounding_adjustment_cents: cents(pools.adjustment),
      recent: recent.map(poolSummary),
    },
    tips_beyond_sale: await tipsBeyondSale(sql, merchantId, limit),
  };
}

/** Tips that predate issue 33 carry no sale total and are not measured. */
async function tipsBeyondSale(
  sql: Sql,
  merchantId: string | null,
  limit: number,
): Promise<TipAnalytics['tips_beyond_sale']> {
  const rows = await sql.query<{
    count: string;
    transaction_id: string;
    merchant_id: string;
    sale_total: string;
    tips_total: string;
    tips: TipOnSale[];
  }>(
    `select count(*) over () as count, transaction_id, merchant_id, max(sale_total_cents) as sale_total, sum(amount_cents) as tips_total,
       jsonb_agg(jsonb_build_object('tip_id', tip_id, 'employee_id', employee_id, 'amount_cents', amount_cents, 'audit_hash', audit_hash)
         order by chain_position) as tips
     from rm_tips where sale_total_cents is not null and ${OF_MERCHANT}
     group by merchant_id, transaction_id
     having sum(amount_cents) > greatest(max(sale_total_cents), $3)
     order by max(chain_position) desc limit $2`,
    [merchantId, limit, TIPS_BEYOND_SALE_FLOOR_CENTS],
  );
  return {
    count: cents(rows[0]?.count ?? 0),
    floor_cents: TIPS_BEYOND_SALE_FLOOR_CENTS,
    sales: rows.map((row) => ({
      transaction_id: row.transaction_id,
      merchant_id: row.merchant_id,
      sale_total_cents: cents(row.sale_total),
      tips_total_cents: cents(row.tips_total),
      tips: row.tips,
    })),
  };
}

export interface PoolRow {
  pool_id: string;
  merchant_id: string;
  pool_name: string;
  distribution_method: PoolMethod;
  total_cents: string;
  participants: PoolParticipant[];
  contributors: string[];
  created_at: Date;
  audit_hash: string;
  distributed_at: Date | null;
  total_distributed_cents: string | null;
  rounding_adjustment_cents: string | null;
  shares: PoolShare[] | null;
  distribution_hash: string | null;
}

export function poolSummary(row: PoolRow): TipPoolSummary {
  const distributed = row.distributed_at !== null;
  return {
    pool_id: row.pool_id,
    merchant_id: row.merchant_id,
    pool_name: row.pool_name,
    distribution_method: row.distribution_method,
    status: distributed ? 'distributed' : 'open',
    total_cents: cents(row.total_cents),
    participant_count: row.participants.length,
    contributor_count: row.contributors.length,
    created_at: row.created_at.toISOString(),
    distributed_at: row.distributed_at?.toISOString() ?? null,
    total_distributed_cents: distributed ? cents(row.total_distributed_cents) : null,
    rounding_adjustment_cents: distributed ? cents(row.rounding_adjustment_cents) : null,
    shares: row.shares,
  };
}

async function totalsByMethod<M extends string>(
  sql: Sql,
  table: string,
  column: string,
  methods: readonly M[],
  merchantId: string | null,
) {
  const rows = await sql.query<{ method: M; count: number; total: string }>(
    `select ${column} as method, count(*)::int as count, sum(amount_cents) as total from ${table} where ${OF_MERCHANT} group by ${column}`,
    [merchantId],
  );
  const byMethod = Object.fromEntries(
    methods.map((m) => [m, { count: 0, total_cents: 0, average_cents: 0 }]),
  ) as Record<M, TipMethodTotal>;
  for (const row of rows)
    byMethod[row.method] = {
      count: row.count,
      total_cents: cents(row.total),
      average_cents: average(cents(row.total), row.count),
    };
  const count = rows.reduce((sum, row) => sum + row.count, 0);
  const totalCents = rows.reduce((sum, row) => sum + cents(row.total), 0);
  return { count, total_cents: totalCents, average_cents: average(totalCents, count), by_method: byMethod };
}
