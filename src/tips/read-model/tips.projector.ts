import type { StoredEvent } from '../../platform/event-store/event-store.port';
import { insertRows, type Sql } from '../../platform/event-store/sql';
import type { TipSnapshot } from '../tip-pool.decider';
import type { TipView } from '../tip.response.dto';
import type {
  TipAdjustedData,
  TipCreditCheckedData,
  TipPaidOutData,
  TipPoolDistributedData,
  TipPooledData,
  TipRecordedData,
} from '../tip.events';
import { tipCreditStatusOf } from '../tip.events';
import { historyEntry } from '../../transactions/read-model/transaction-view';
import type { HistoryEntry } from '../../transactions/transaction.response.dto';
import { TIPS_BEYOND_SALE_FLOOR_CENTS } from './tip-summary';
import type { Projector } from '../../platform/projections/projector';

const TABLES = ['rm_tips', 'rm_tip_adjustments', 'rm_tip_pools', 'rm_tip_payouts', 'rm_tip_credit_checks'] as const;

/**
 * Tips, adjustments, pools, payouts and tip-credit checks, one table each, built after the append.
 * Pooling and adjusting read `rm_tips` once it has applied the log as it was when they started, and
 * check the entries after that under the chain-head lock (tip-reads.ts), to keep a tip in one pool
 * at most; the analytics read it as of a position (`min_position`).
 */
export const tipsProjector: Projector = {
  name: 'tips',
  version: 3,
  handles: ['TipRecorded', 'TipAdjusted', 'TipPooled', 'TipPoolDistributed', 'TipPaidOut', 'TipCreditChecked'],

  async reset(tx: Sql): Promise<void> {
    for (const table of TABLES) await tx.query(`drop table if exists ${table}`);
    await tx.query(
      `create table rm_tips (
         tip_id text primary key,
         merchant_id text not null,
         transaction_id text not null,
         method text not null,
         employee_id text not null,
         employee_name text not null,
         amount_cents bigint not null,
         original_amount_cents bigint not null,
         sale_total_cents bigint,
         pool_id text,
         recorded_at timestamptz not null,
         audit_hash char(64) not null,
         chain_position bigint not null,
         last_position bigint not null,
         history jsonb not null
       )`,
    );
    await tx.query('create index rm_tips_employee on rm_tips (merchant_id, employee_id)');
    await tx.query(
      `create table rm_tip_adjustments (
         adjustment_id text primary key,
         tip_id text not null,
         merchant_id text not null,
         employee_id text not null,
         previous_amount_cents bigint not null,
         new_amount_cents bigint not null,
         reason text not null,
         adjusted_at timestamptz not null,
         adjusted_by text,
         audit_hash char(64) not null,
         chain_position bigint not null
       )`,
    );
    await tx.query(
      `create table rm_tip_pools (
         pool_id text primary key,
         merchant_id text not null,
         pool_name text not null,
         distribution_method text not null,
         total_cents bigint not null,
         participants jsonb not null,
         contributors jsonb not null,
         created_at timestamptz not null,
         audit_hash char(64) not null,
         chain_position bigint not null,
         distributed_at timestamptz,
         total_distributed_cents bigint,
         rounding_adjustment_cents bigint,
         shares jsonb,
         distribution_hash char(64)
       )`,
    );
    await tx.query(
      `create table rm_tip_payouts (
         payout_id text primary key,
         merchant_id text not null,
         employee_id text not null,
         employee_name text not null,
         amount_cents bigint not null,
         payout_method text not null,
         paid_at timestamptz not null,
         audit_hash char(64) not null,
         chain_position bigint not null
       )`,
    );
    await tx.query('create index rm_tip_payouts_employee on rm_tip_payouts (merchant_id, employee_id)');
    await tx.query(
      `create table rm_tip_credit_checks (
         check_id text primary key,
         merchant_id text not null,
         employee_id text,
         state text not null,
         hourly_wage_cents bigint not null,
         average_tips_per_hour_cents bigint not null,
         federal_minimum_wage_cents bigint,
         status text not null,
         compliant boolean,
         checked_at timestamptz not null,
         audit_hash char(64) not null,
         chain_position bigint not null
       )`,
    );
  },

  async apply(events: readonly StoredEvent[], tx: Sql): Promise<void> {
    const rows: Record<(typeof TABLES)[number], Record<string, unknown>[]> = {
      rm_tips: [],
      rm_tip_adjustments: [],
      rm_tip_pools: [],
      rm_tip_payouts: [],
      rm_tip_credit_checks: [],
    };
    // Events that change rows of rm_tips (adjusted, pooled) and rm_tip_pools (distributed), in order.
    const tipChanges: StoredEvent[] = [];
    const distributions: StoredEvent[] = [];
    for (const event of events) {
      const chain = { audit_hash: event.hash, chain_position: event.position };
      switch (event.type) {
        case 'TipRecorded': {
          const d = event.data as TipRecordedData;
          rows.rm_tips.push({
            tip_id: d.tip_id,
            merchant_id: d.merchant_id,
            transaction_id: d.transaction_id,
            method: d.method,
            employee_id: d.employee_id,
            employee_name: d.employee_name,
            amount_cents: d.amount_cents,
            original_amount_cents: d.amount_cents,
            sale_total_cents: d.sale_total_cents ?? null,
            pool_id: null,
            recorded_at: d.recorded_at,
            ...chain,
            last_position: event.position,
            history: [historyEntry(event)],
          });
          break;
        }
        case 'TipAdjusted': {
          const d = event.data as TipAdjustedData;
          rows.rm_tip_adjustments.push({
            adjustment_id: d.adjustment_id,
            tip_id: d.tip_id,
            merchant_id: d.merchant_id,
            employee_id: d.employee_id,
            previous_amount_cents: d.previous_amount_cents,
            new_amount_cents: d.new_amount_cents,
            reason: d.reason,
            adjusted_at: d.adjusted_at,
            adjusted_by: event.metadata.actor?.keyId ?? null,
            ...chain,
          });
          tipChanges.push(event);
          break;
        }
        case 'TipPooled': {
          const d = event.data as TipPooledData;
          rows.rm_tip_pools.push({
            pool_id: d.pool_id,
            merchant_id: d.merchant_id,
            pool_name: d.pool_name,
            distribution_method: d.distribution_method,
            total_cents: d.total_cents,
            participants: d.participants,
            contributors: d.contributors,
            created_at: d.created_at,
            ...chain,
          });
          tipChanges.push(event);
          break;
        }
        case 'TipPoolDistributed':
          distributions.push(event);
          break;
        case 'TipPaidOut': {
          const d = event.data as TipPaidOutData;
          rows.rm_tip_payouts.push({
            payout_id: d.payout_id,
            merchant_id: d.merchant_id,
            employee_id: d.employee_id,
            employee_name: d.employee_name,
            amount_cents: d.amount_cents,
            payout_method: d.payout_method,
            paid_at: d.paid_at,
            ...chain,
          });
          break;
        }
        case 'TipCreditChecked': {
          const d = event.data as TipCreditCheckedData;
          const federalMinimum =
            d.requirements.find((r) => r.requirement === 'FLSA_MINIMUM_WAGE')?.required_cents ?? null;
          rows.rm_tip_credit_checks.push({
            check_id: d.check_id,
            merchant_id: d.merchant_id,
            employee_id: d.employee_id,
            state: d.state,
            hourly_wage_cents: d.hourly_wage_cents,
            average_tips_per_hour_cents: d.average_tips_per_hour_cents,
            federal_minimum_wage_cents: federalMinimum,
            status: tipCreditStatusOf(d),
            compliant: d.compliant,
            checked_at: d.checked_at,
            ...chain,
          });
          break;
        }
      }
    }
    // A record already there (a replay) is kept as it is.
    for (const table of TABLES) {
      if (rows[table].length === 0) continue;
      const params: unknown[] = [];
      await tx.query(`${insertRows(table, rows[table], params)} on conflict do nothing`, params);
    }
    await changeTips(tx, tipChanges);
    await distribute(tx, distributions);
  },
};

/**
 * Folds adjustments and poolings into the tips they touch, in position order, as if applied one by
 * one: read in one query, written back in one. The position guard makes a replayed adjustment change
 * nothing; a pooling takes only a tip in no pool (the pooling handler made sure, under the chain-head
 * lock, that no other pooling took one first).
 */
async function changeTips(tx: Sql, changes: StoredEvent[]): Promise<void> {
  if (changes.length === 0) return;
  const tipIds = changes.flatMap((event) =>
    event.type === 'TipAdjusted'
      ? [(event.data as TipAdjustedData).tip_id]
      : (event.data as TipPooledData).tips.map((tip) => tip.tip_id),
  );
  const found = await tx.query<{
    tip_id: string;
    amount_cents: string;
    pool_id: string | null;
    last_position: string;
    history: HistoryEntry[];
  }>('select tip_id, amount_cents, pool_id, last_position, history from rm_tips where tip_id = any($1)', [
    [...new Set(tipIds)],
  ]);
  const tips = new Map(found.map((row) => [row.tip_id, { ...row, last_position: Number(row.last_position) }]));
  const changed = new Set<string>();
  for (const event of changes) {
    if (event.type === 'TipAdjusted') {
      const d = event.data as TipAdjustedData;
      const tip = tips.get(d.tip_id);
      if (!tip || tip.last_position >= event.position) continue;
      Object.assign(tip, {
        amount_cents: String(d.new_amount_cents),
        history: [...tip.history, historyEntry(event)],
        last_position: event.position,
      });
      changed.add(tip.tip_id);
    } else {
      const d = event.data as TipPooledData;
      for (const { tip_id: tipId } of d.tips) {
        const tip = tips.get(tipId);
        if (!tip || tip.pool_id !== null) continue;
        tip.pool_id = d.pool_id;
        changed.add(tipId);
      }
    }
  }
  if (changed.size === 0) return;
  const rows = [...changed].map((id) => tips.get(id)!);
  await tx.query(
    `update rm_tips t set amount_cents = u.amount_cents, pool_id = u.pool_id, last_position = u.last_position, history = u.history::jsonb
     from unnest($1::text[], $2::bigint[], $3::text[], $4::bigint[], $5::text[]) as u(tip_id, amount_cents, pool_id, last_position, history)
     where t.tip_id = u.tip_id`,
    [
      rows.map((r) => r.tip_id),
      rows.map((r) => r.amount_cents),
      rows.map((r) => r.pool_id),
      rows.map((r) => r.last_position),
      rows.map((r) => JSON.stringify(r.history)),
    ],
  );
}

/** A pool distributes once; a replay writes the same values again. */
async function distribute(tx: Sql, distributions: StoredEvent[]): Promise<void> {
  if (distributions.length === 0) return;
  const pools = distributions.map((event) => ({ ...(event.data as TipPoolDistributedData), hash: event.hash }));
  await tx.query(
    `update rm_tip_pools p set distributed_at = u.distributed_at, total_distributed_cents = u.total_distributed_cents,
       rounding_adjustment_cents = u.rounding_adjustment_cents, shares = u.shares::jsonb, distribution_hash = u.hash
     from unnest($1::text[], $2::timestamptz[], $3::bigint[], $4::bigint[], $5::text[], $6::text[])
       as u(pool_id, distributed_at, total_distributed_cents, rounding_adjustment_cents, shares, hash)
     where p.pool_id = u.pool_id`,
    [
      pools.map((d) => d.pool_id),
      pools.map((d) => d.distributed_at),
      pools.map((d) => d.total_distributed_cents),
      pools.map((d) => d.rounding_adjustment_cents),
      pools.map((d) => JSON.stringify(d.shares)),
      pools.map((d) => d.hash),
    ],
  );
}

interface TipRow {
  tip_id: string;
  merchant_id: string;
  transaction_id: string;
  method: TipView['method'];
  employee_id: string;
  employee_name: string;
  amount_cents: string;
  original_amount_cents: string;
  sale_total_cents: string | null;
  pool_id: string | null;
  recorded_at: Date;
  audit_hash: string;
  chain_position: string;
  history: HistoryEntry[];
}

export async function findTip(sql: Sql, tipId: string): Promise<TipView | undefined> {
  const [row] = await sql.query<TipRow>('select * from rm_tips where tip_id = $1', [tipId]);
  return (
    row && {
      id: row.tip_id,
      merchant_id: row.merchant_id,
      transaction_id: row.transaction_id,
      method: row.method,
      employee_id: row.employee_id,
      employee_name: row.employee_name,
      amount_cents: Number(row.amount_cents),
      original_amount_cents: Number(row.original_amount_cents),
      exceeds_sale:
        row.sale_total_cents !== null &&
        Number(row.amount_cents) > Math.max(Number(row.sale_total_cents), TIPS_BEYOND_SALE_FLOOR_CENTS),
      pool_id: row.pool_id,
      created_at: row.recorded_at.toISOString(),
      auditHash: row.audit_hash,
      chain_position: Number(row.chain_position),
      history: row.history,
    }
  );
}

/** The tips found among `tipIds`, with their merchant, current amount and pool. */
export async function findTipsForPool(
  sql: Sql,
  tipIds: readonly string[],
): Promise<(TipSnapshot & { merchant_id: string })[]> {
  const rows = await sql.query<{
    tip_id: string;
    merchant_id: string;
    employee_id: string;
    employee_name: string;
    amount_cents: string;
    pool_id: string | null;
  }>(
    'select tip_id, merchant_id, employee_id, employee_name, amount_cents, pool_id from rm_tips where tip_id = any($1)',
    [tipIds],
  );
  return rows.map((row) => ({ ...row, amount_cents: Number(row.amount_cents) }));
}
