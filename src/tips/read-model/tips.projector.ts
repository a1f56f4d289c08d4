import type { StoredEvent } from '../../platform/event-store/event-store.port';
import type { Sql } from '../../platform/event-store/sql';
import type { TipSnapshot } from '../tip-pool.decider';
import type { TipView } from '../tip-view';
import type {
  TipAdjustedData,
  TipCreditCheckedData,
  TipPaidOutData,
  TipPoolDistributedData,
  TipPooledData,
  TipRecordedData,
} from '../tip.events';
import { historyEntry, type HistoryEntry } from '../../transactions';
import type { Projector } from '../../platform/projections/projector';

const TABLES = ['rm_tips', 'rm_tip_adjustments', 'rm_tip_pools', 'rm_tip_payouts', 'rm_tip_credit_checks'];

/**
 * Tips, adjustments, pools, payouts and tip-credit checks, one table each. Inline: pooling and
 * adjusting read `rm_tips` inside the append transaction (under the chain-head lock) to keep a tip
 * in one pool at most, and the analytics then read one consistent snapshot. Tip operations are few
 * next to sales, so the append pays little for it.
 */
export const tipsProjector: Projector = {
  name: 'tips',
  version: 1,
  mode: 'inline',
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
         compliant boolean not null,
         checked_at timestamptz not null,
         audit_hash char(64) not null,
         chain_position bigint not null
       )`,
    );
  },

  async apply(event: StoredEvent, tx: Sql): Promise<void> {
    const chain = [event.hash, event.position];
    switch (event.type) {
      case 'TipRecorded': {
        const d = event.data as TipRecordedData;
        await tx.query(
          `insert into rm_tips (tip_id, merchant_id, transaction_id, method, employee_id, employee_name, amount_cents,
             original_amount_cents, recorded_at, audit_hash, chain_position, last_position, history)
           values ($1, $2, $3, $4, $5, $6, $7, $7, $8, $9, $10, $10, $11)
           on conflict (tip_id) do nothing`,
          [d.tip_id, d.merchant_id, d.transaction_id, d.method, d.employee_id, d.employee_name, d.amount_cents, d.recorded_at, ...chain, JSON.stringify([historyEntry(event)])],
        );
        return;
      }
      case 'TipAdjusted': {
        const d = event.data as TipAdjustedData;
        // The position guard makes a replay of an adjustment already applied change nothing.
        await tx.query(
          `update rm_tips set amount_cents = $2, history = history || $3::jsonb, last_position = $4
           where tip_id = $1 and last_position < $4`,
          [d.tip_id, d.new_amount_cents, JSON.stringify([historyEntry(event)]), event.position],
        );
        await tx.query(
          `insert into rm_tip_adjustments (adjustment_id, tip_id, merchant_id, employee_id, previous_amount_cents,
             new_amount_cents, reason, adjusted_at, adjusted_by, audit_hash, chain_position)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
           on conflict (adjustment_id) do nothing`,
          [d.adjustment_id, d.tip_id, d.merchant_id, d.employee_id, d.previous_amount_cents, d.new_amount_cents, d.reason, d.adjusted_at, event.metadata.actor?.keyId ?? null, ...chain],
        );
        return;
      }
      case 'TipPooled': {
        const d = event.data as TipPooledData;
        await tx.query(
          `insert into rm_tip_pools (pool_id, merchant_id, pool_name, distribution_method, total_cents, participants,
             contributors, created_at, audit_hash, chain_position)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
           on conflict (pool_id) do nothing`,
          [d.pool_id, d.merchant_id, d.pool_name, d.distribution_method, d.total_cents, JSON.stringify(d.participants), JSON.stringify(d.contributors), d.created_at, ...chain],
        );
        // Only a tip in no pool takes this one: the pooling handler checks in the same transaction that all of them did.
        await tx.query('update rm_tips set pool_id = $1 where tip_id = any($2) and pool_id is null', [d.pool_id, d.tips.map((tip) => tip.tip_id)]);
        return;
      }
      case 'TipPoolDistributed': {
        const d = event.data as TipPoolDistributedData;
        await tx.query(
          `update rm_tip_pools set distributed_at = $2, total_distributed_cents = $3, rounding_adjustment_cents = $4,
             shares = $5, distribution_hash = $6
           where pool_id = $1`,
          [d.pool_id, d.distributed_at, d.total_distributed_cents, d.rounding_adjustment_cents, JSON.stringify(d.shares), event.hash],
        );
        return;
      }
      case 'TipPaidOut': {
        const d = event.data as TipPaidOutData;
        await tx.query(
          `insert into rm_tip_payouts (payout_id, merchant_id, employee_id, employee_name, amount_cents, payout_method, paid_at,
             audit_hash, chain_position)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
           on conflict (payout_id) do nothing`,
          [d.payout_id, d.merchant_id, d.employee_id, d.employee_name, d.amount_cents, d.payout_method, d.paid_at, ...chain],
        );
        return;
      }
      case 'TipCreditChecked': {
        const d = event.data as TipCreditCheckedData;
        const federalMinimum = d.requirements.find((r) => r.requirement === 'FLSA_MINIMUM_WAGE')?.required_cents ?? null;
        await tx.query(
          `insert into rm_tip_credit_checks (check_id, merchant_id, employee_id, state, hourly_wage_cents, average_tips_per_hour_cents,
             federal_minimum_wage_cents, compliant, checked_at, audit_hash, chain_position)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
           on conflict (check_id) do nothing`,
          [d.check_id, d.merchant_id, d.employee_id, d.state, d.hourly_wage_cents, d.average_tips_per_hour_cents, federalMinimum, d.compliant, d.checked_at, ...chain],
        );
        return;
      }
    }
  },
};

interface TipRow {
  tip_id: string;
  merchant_id: string;
  transaction_id: string;
  method: TipView['method'];
  employee_id: string;
  employee_name: string;
  amount_cents: string;
  original_amount_cents: string;
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
      pool_id: row.pool_id,
      created_at: row.recorded_at.toISOString(),
      auditHash: row.audit_hash,
      chain_position: Number(row.chain_position),
      history: row.history,
    }
  );
}

/** The tips found among `tipIds`, with their merchant, current amount and pool. */
export async function findTipsForPool(sql: Sql, tipIds: readonly string[]): Promise<(TipSnapshot & { merchant_id: string })[]> {
  const rows = await sql.query<{ tip_id: string; merchant_id: string; employee_id: string; employee_name: string; amount_cents: string; pool_id: string | null }>(
    'select tip_id, merchant_id, employee_id, employee_name, amount_cents, pool_id from rm_tips where tip_id = any($1)',
    [tipIds],
  );
  return rows.map((row) => ({ ...row, amount_cents: Number(row.amount_cents) }));
}

export async function findPoolMerchant(sql: Sql, poolId: string): Promise<string | undefined> {
  const [row] = await sql.query<{ merchant_id: string }>('select merchant_id from rm_tip_pools where pool_id = $1', [poolId]);
  return row?.merchant_id;
}
