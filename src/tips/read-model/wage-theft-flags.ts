/** GET /analytics/tip-wage-theft, read from the tips read model. */

import type { Sql } from '../../platform/event-store/sql';
import type { TipFlaggedRecord, TipWageTheftFlag } from '../tip-wage-theft.response.dto';
import { OF_MERCHANT, cents, poolSummary, type PoolRow } from './tip-summary';

const record = (type: TipFlaggedRecord['type'], id: string, auditHash: string): TipFlaggedRecord => ({
  type,
  id,
  audit_hash: auditHash,
});
const jsonRecord = (type: TipFlaggedRecord['type'], id: string, hash: string) =>
  `jsonb_build_object('type', '${type}', 'id', ${id}, 'audit_hash', ${hash})`;
/** The pool's tips as flagged records, oldest first. */
const POOL_TIPS = `(select coalesce(jsonb_agg(${jsonRecord('tip', 't.tip_id', 't.audit_hash')} order by t.chain_position), '[]')
  from rm_tips t where t.pool_id = p.pool_id) as tip_records`;

/**
 * GET /analytics/tip-wage-theft. `dueBefore`: tips recorded before it should have been paid out, and
 * pools created before it distributed, by now (the configured grace period).
 */
export async function wageTheftFlags(
  sql: Sql,
  merchantId: string | null,
  dueBefore: Date,
): Promise<TipWageTheftFlag[]> {
  return [
    ...(await downwardAdjustments(sql, merchantId)),
    ...(await payoutShortfalls(sql, merchantId, dueBefore)),
    ...(await poolFlags(sql, merchantId, dueBefore)),
    ...(await belowFederalMinimum(sql, merchantId)),
  ];
}

async function downwardAdjustments(sql: Sql, merchantId: string | null): Promise<TipWageTheftFlag[]> {
  const rows = await sql.query<{
    adjustment_id: string;
    tip_id: string;
    merchant_id: string;
    employee_id: string;
    previous: string;
    next: string;
    reason: string;
    adjusted_at: Date;
    adjusted_by: string | null;
    audit_hash: string;
    tip_hash: string;
  }>(
    `select a.adjustment_id, a.tip_id, a.merchant_id, a.employee_id, a.previous_amount_cents as previous, a.new_amount_cents as next,
       a.reason, a.adjusted_at, a.adjusted_by, a.audit_hash, t.audit_hash as tip_hash
     from rm_tip_adjustments a join rm_tips t using (tip_id)
     where a.new_amount_cents < a.previous_amount_cents and ($1::text is null or a.merchant_id = $1)
     order by a.chain_position`,
    [merchantId],
  );
  return rows.map((row) => ({
    type: 'DOWNWARD_TIP_ADJUSTMENT',
    merchant_id: row.merchant_id,
    employee_id: row.employee_id,
    message: `Tip ${row.tip_id} was cut from ${cents(row.previous)} to ${cents(row.next)} cents after it was recorded`,
    details: {
      tip_id: row.tip_id,
      previous_amount_cents: cents(row.previous),
      new_amount_cents: cents(row.next),
      reduction_cents: cents(row.previous) - cents(row.next),
      reason: row.reason,
      adjusted_at: row.adjusted_at.toISOString(),
      adjusted_by_key: row.adjusted_by,
    },
    records: [record('tip', row.tip_id, row.tip_hash), record('tip_adjustment', row.adjustment_id, row.audit_hash)],
  }));
}

/** Per employee: the tips (in no pool) due by now against everything paid out to them. Pool shares are paid when distributed. */
async function payoutShortfalls(sql: Sql, merchantId: string | null, dueBefore: Date): Promise<TipWageTheftFlag[]> {
  const rows = await sql.query<{
    merchant_id: string;
    employee_id: string;
    due: string;
    paid: string | null;
    tips: TipFlaggedRecord[];
    payouts: TipFlaggedRecord[] | null;
  }>(
    `with due as (
       select merchant_id, employee_id, sum(amount_cents) as due,
         jsonb_agg(${jsonRecord('tip', 'tip_id', 'audit_hash')} order by chain_position) as tips
       from rm_tips where pool_id is null and recorded_at <= $2 and ${OF_MERCHANT}
       group by merchant_id, employee_id),
     paid as (
       select merchant_id, employee_id, sum(amount_cents) as paid,
         jsonb_agg(${jsonRecord('tip_payout', 'payout_id', 'audit_hash')} order by chain_position) as payouts
       from rm_tip_payouts where ${OF_MERCHANT}
       group by merchant_id, employee_id)
     select due.merchant_id, due.employee_id, due.due, paid.paid, due.tips, paid.payouts
     from due left join paid using (merchant_id, employee_id)
     where due.due > coalesce(paid.paid, 0)
     order by due.merchant_id, due.employee_id`,
    [merchantId, dueBefore.toISOString()],
  );
  return rows.map((row) => {
    const due = cents(row.due);
    const paid = cents(row.paid);
    return {
      type: 'PAYOUT_SHORTFALL',
      merchant_id: row.merchant_id,
      employee_id: row.employee_id,
      message: `Employee ${row.employee_id} was paid out ${paid} of ${due} cents in tips due by ${dueBefore.toISOString()}`,
      details: {
        tips_due_cents: due,
        paid_out_cents: paid,
        shortfall_cents: due - paid,
        due_before: dueBefore.toISOString(),
      },
      records: [...row.tips, ...(row.payouts ?? [])],
    };
  });
}

/** Distributed pools that left contributors out, and pools still undistributed past the grace period. */
async function poolFlags(sql: Sql, merchantId: string | null, dueBefore: Date): Promise<TipWageTheftFlag[]> {
  const rows = await sql.query<PoolRow & { tip_records: TipFlaggedRecord[] }>(
    `select p.*, ${POOL_TIPS} from rm_tip_pools p
     where ${OF_MERCHANT} and (
       (p.distributed_at is not null and jsonb_array_length(p.participants) < jsonb_array_length(p.contributors))
       or (p.distributed_at is null and p.created_at <= $2))
     order by p.chain_position`,
    [merchantId, dueBefore.toISOString()],
  );
  return rows.map((row) => {
    const summary = poolSummary(row);
    const poolRecord = record('tip_pool', row.pool_id, row.audit_hash);
    if (row.distribution_hash === null) {
      return {
        type: 'POOL_NOT_DISTRIBUTED',
        merchant_id: row.merchant_id,
        employee_id: null,
        message: `Tip pool ${row.pool_id} holding ${summary.total_cents} cents was created at ${summary.created_at} and never distributed`,
        details: {
          pool_id: row.pool_id,
          total_cents: summary.total_cents,
          created_at: summary.created_at,
          due_before: dueBefore.toISOString(),
        },
        records: [poolRecord, ...row.tip_records],
      };
    }
    const recipients = new Set(row.participants.map((p) => p.employeeId));
    const excluded = row.contributors.filter((employee) => !recipients.has(employee));
    return {
      type: 'POOL_FEWER_RECIPIENTS_THAN_CONTRIBUTORS',
      merchant_id: row.merchant_id,
      employee_id: null,
      message: `Tip pool ${row.pool_id} took tips from ${row.contributors.length} employees and paid ${row.participants.length}`,
      details: {
        pool_id: row.pool_id,
        contributors: row.contributors,
        recipients: [...recipients],
        excluded_contributors: excluded,
        total_cents: summary.total_cents,
      },
      records: [poolRecord, record('tip_pool_distribution', row.pool_id, row.distribution_hash), ...row.tip_records],
    };
  });
}

async function belowFederalMinimum(sql: Sql, merchantId: string | null): Promise<TipWageTheftFlag[]> {
  const rows = await sql.query<{
    check_id: string;
    merchant_id: string;
    employee_id: string | null;
    state: string;
    wage: string;
    tips: string;
    minimum: string;
    checked_at: Date;
    audit_hash: string;
  }>(
    `select check_id, merchant_id, employee_id, state, hourly_wage_cents as wage, average_tips_per_hour_cents as tips,
       federal_minimum_wage_cents as minimum, checked_at, audit_hash
     from rm_tip_credit_checks
     where hourly_wage_cents + average_tips_per_hour_cents < federal_minimum_wage_cents and ${OF_MERCHANT}
     order by chain_position`,
    [merchantId],
  );
  return rows.map((row) => {
    const total = cents(row.wage) + cents(row.tips);
    return {
      type: 'BELOW_FEDERAL_MINIMUM_WAGE',
      merchant_id: row.merchant_id,
      employee_id: row.employee_id,
      message: `A cash wage of ${cents(row.wage)} plus ${cents(row.tips)} cents of tips an hour is under the federal minimum of ${cents(row.minimum)}`,
      details: {
        state: row.state,
        hourly_wage_cents: cents(row.wage),
        average_tips_per_hour_cents: cents(row.tips),
        federal_minimum_wage_cents: cents(row.minimum),
        hourly_shortfall_cents: cents(row.minimum) - total,
        checked_at: row.checked_at.toISOString(),
      },
      records: [record('tip_credit_check', row.check_id, row.audit_hash)],
    };
  });
}
