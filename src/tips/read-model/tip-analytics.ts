import { ApiProperty, getSchemaPath } from '@nestjs/swagger';
import type { Sql } from '../../platform/event-store/sql';
import { PAYOUT_METHODS, POOL_METHODS, TIP_METHODS, type PayoutMethod, type PoolMethod, type PoolParticipant, type PoolShare, type TipMethod } from '../tip.events';
import { POOL_ID_PATTERN } from '../tip-ids';
import { POOL_ID_EXAMPLE, TIP_ID_EXAMPLE, TIP_POOL_STATUSES, TipDoc, TipPoolShareView, type TipPoolStatus } from '../tip-view';

/** Reads of the tips read model for GET /analytics/tips and GET /analytics/tip-wage-theft. */

/** `$1` of every query: one merchant, or null for all of them. */
const OF_MERCHANT = '($1::text is null or merchant_id = $1)';

const cents = (value: string | number | null) => Number(value ?? 0);
/** Integer cents: an average is money too. */
const average = (total: number, count: number) => (count === 0 ? 0 : Math.round(total / count));

const { AuditHash, MerchantId, Instant, Cents, EXAMPLE_TIME } = TipDoc;
const Count = (example: number, description?: string) => ApiProperty({ type: 'integer', minimum: 0, description, example });

export class TipMethodTotal {
  @Count(2)
  count: number;

  @Cents(601, 'Current amounts, after adjustments')
  total_cents: number;

  @Cents(301, '`total_cents / count` rounded to the nearest cent; 0 when there are none')
  average_cents: number;
}

export class TipTotalsByMethod implements Record<TipMethod, TipMethodTotal> {
  @ApiProperty({ type: TipMethodTotal, description: 'Tips of `POST /tip/cash`' })
  cash: TipMethodTotal;

  @ApiProperty({ type: TipMethodTotal, description: 'Tips of `POST /tip/credit-card`' })
  credit_card: TipMethodTotal;
}

export class TipPayoutTotalsByMethod implements Record<PayoutMethod, TipMethodTotal> {
  @ApiProperty({ type: TipMethodTotal })
  cash: TipMethodTotal;

  @ApiProperty({ type: TipMethodTotal })
  check: TipMethodTotal;

  @ApiProperty({ type: TipMethodTotal })
  direct_deposit: TipMethodTotal;
}

export class TipTotals {
  @Count(3)
  count: number;

  @Cents(1801, 'Current amounts, after adjustments')
  total_cents: number;

  @Cents(600, 'The average tip, rounded to the nearest cent; 0 when there are none')
  average_cents: number;

  @ApiProperty({ type: TipTotalsByMethod, description: 'Every method, with zeros where there are none' })
  by_method: TipTotalsByMethod;
}

export class TipPayoutTotals {
  @Count(1)
  count: number;

  @Cents(600)
  total_cents: number;

  @Cents(600, 'The average payout, rounded to the nearest cent; 0 when there are none')
  average_cents: number;

  @ApiProperty({ type: TipPayoutTotalsByMethod, description: 'Every method, with zeros where there are none' })
  by_method: TipPayoutTotalsByMethod;
}

export class TipAdjustmentTotals {
  @Count(1)
  count: number;

  @Count(1, 'Adjustments that raised a tip')
  upward_count: number;

  @Count(0, 'Adjustments that cut a tip (each is a flag of GET /analytics/tip-wage-theft)')
  downward_count: number;

  @Cents(200, 'The sum of every adjustment’s change; negative when tips were cut more than raised')
  net_change_cents: number;
}

async function totalsByMethod<M extends string>(sql: Sql, table: string, column: string, methods: readonly M[], merchantId: string | null) {
  const rows = await sql.query<{ method: M; count: number; total: string }>(
    `select ${column} as method, count(*)::int as count, sum(amount_cents) as total from ${table} where ${OF_MERCHANT} group by ${column}`,
    [merchantId],
  );
  const byMethod = Object.fromEntries(methods.map((m) => [m, { count: 0, total_cents: 0, average_cents: 0 }])) as Record<M, TipMethodTotal>;
  for (const row of rows) byMethod[row.method] = { count: row.count, total_cents: cents(row.total), average_cents: average(cents(row.total), row.count) };
  const count = rows.reduce((sum, row) => sum + row.count, 0);
  const total_cents = rows.reduce((sum, row) => sum + cents(row.total), 0);
  return { count, total_cents, average_cents: average(total_cents, count), by_method: byMethod };
}

export class TipPoolSummary {
  @ApiProperty({ type: 'string', pattern: POOL_ID_PATTERN.source, example: POOL_ID_EXAMPLE })
  pool_id: string;

  @MerchantId()
  merchant_id: string;

  @ApiProperty({ type: 'string', example: 'Saturday dinner shift' })
  pool_name: string;

  @ApiProperty({ enum: POOL_METHODS, example: 'equal' })
  distribution_method: PoolMethod;

  @ApiProperty({ enum: TIP_POOL_STATUSES, example: 'distributed' })
  status: TipPoolStatus;

  @Cents(400, 'What the pooled tips hold')
  total_cents: number;

  @Count(3)
  participant_count: number;

  @Count(1, 'Employees whose tips went in')
  contributor_count: number;

  @Instant()
  created_at: string;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true, description: 'null while the pool is open', example: EXAMPLE_TIME })
  distributed_at: string | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'The sum of the shares; null while the pool is open', example: 402 })
  total_distributed_cents: number | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'What rounding every share up cost the employer; null while the pool is open', example: 2 })
  rounding_adjustment_cents: number | null;

  @ApiProperty({
    type: [TipPoolShareView],
    nullable: true,
    description: 'Each participant’s share; null while the pool is open',
    example: [{ employeeId: 'emp-0042', employeeName: 'Ana Ruiz', share_cents: 134 }],
  })
  shares: TipPoolShareView[] | null;
}

export class TipPoolTotals {
  @Count(1)
  count: number;

  @Count(0)
  open_count: number;

  @Count(1)
  distributed_count: number;

  @Cents(400, 'What every pool holds')
  total_pooled_cents: number;

  @Cents(402, 'What the distributed pools paid out')
  total_distributed_cents: number;

  @Cents(2, 'What rounding shares up cost the employers, over the distributed pools')
  rounding_adjustment_cents: number;

  @ApiProperty({ type: [TipPoolSummary], description: 'The newest `limit` pools, newest first; the totals above cover every pool' })
  recent: TipPoolSummary[];
}

/** Tips by method (amounts after adjustments), adjustments, payouts and pools. */
export class TipAnalytics {
  @ApiProperty({ type: TipTotals })
  tips: TipTotals;

  @ApiProperty({ type: TipAdjustmentTotals })
  adjustments: TipAdjustmentTotals;

  @ApiProperty({ type: TipPayoutTotals })
  payouts: TipPayoutTotals;

  @ApiProperty({ type: TipPoolTotals })
  pools: TipPoolTotals;
}

/** GET /analytics/tips: tips by method (amounts after adjustments), adjustments, payouts, and the newest `limit` pools. */
export async function tipAnalytics(sql: Sql, merchantId: string | null, limit: number): Promise<TipAnalytics> {
  const [adjustments] = await sql.query<{ count: number; upward: number; downward: number; net: string | null }>(
    `select count(*)::int as count, (count(*) filter (where new_amount_cents > previous_amount_cents))::int as upward,
       (count(*) filter (where new_amount_cents < previous_amount_cents))::int as downward,
       sum(new_amount_cents - previous_amount_cents) as net
     from rm_tip_adjustments where ${OF_MERCHANT}`,
    [merchantId],
  );
  const [pools] = await sql.query<{ count: number; distributed: number; pooled: string | null; paid: string | null; adjustment: string | null }>(
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
    adjustments: { count: adjustments.count, upward_count: adjustments.upward, downward_count: adjustments.downward, net_change_cents: cents(adjustments.net) },
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
  };
}

interface PoolRow {
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

function poolSummary(row: PoolRow): TipPoolSummary {
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

export const FLAGGED_RECORD_TYPES = ['tip', 'tip_adjustment', 'tip_payout', 'tip_pool', 'tip_pool_distribution', 'tip_credit_check'] as const;
export type TipFlaggedRecordType = (typeof FLAGGED_RECORD_TYPES)[number];

/** A record behind a flag, as the audit log knows it. */
export class TipFlaggedRecord {
  @ApiProperty({ enum: FLAGGED_RECORD_TYPES, description: '`tip_pool_distribution`: the distribution of the pool `id`', example: 'tip' })
  type: TipFlaggedRecordType;

  @ApiProperty({ type: 'string', description: 'The record’s id, as its creating operation answered it (a pool’s id for its distribution)', example: TIP_ID_EXAMPLE })
  id: string;

  @AuditHash('The hash of the record’s entry in the audit chain')
  audit_hash: string;
}

export class DownwardTipAdjustmentDetails {
  @ApiProperty({ type: 'string', example: TIP_ID_EXAMPLE })
  tip_id: string;

  @Cents(2000)
  previous_amount_cents: number;

  @Cents(500)
  new_amount_cents: number;

  @Cents(1500, 'previous_amount_cents - new_amount_cents')
  reduction_cents: number;

  @ApiProperty({ type: 'string', description: 'The reason the adjustment gave', example: 'manager correction' })
  reason: string;

  @Instant()
  adjusted_at: string;

  @ApiProperty({ type: 'string', nullable: true, description: 'The `id` of the API key that made the adjustment', example: 'key_7Qm2VxR9tLp4Kd8Nw3Zb' })
  adjusted_by_key: string | null;
}

export class PayoutShortfallDetails {
  @Cents(4500, 'The employee’s tips in no pool recorded before `due_before`')
  tips_due_cents: number;

  @Cents(3000, 'Everything paid out to the employee')
  paid_out_cents: number;

  @Cents(1500, 'tips_due_cents - paid_out_cents')
  shortfall_cents: number;

  @Instant('2026-11-07T21:47:05.118Z', 'Now less the payout grace period')
  due_before: string;
}

export class PoolFewerRecipientsDetails {
  @ApiProperty({ type: 'string', example: POOL_ID_EXAMPLE })
  pool_id: string;

  @ApiProperty({ type: 'array', items: { type: 'string', example: 'cy' }, description: 'The employees whose tips went in' })
  contributors: string[];

  @ApiProperty({ type: 'array', items: { type: 'string', example: 'cy' }, description: 'The participants the pool paid' })
  recipients: string[];

  @ApiProperty({ type: 'array', items: { type: 'string', example: 'di' }, description: 'Contributors the pool did not pay' })
  excluded_contributors: string[];

  @Cents(9000)
  total_cents: number;
}

export class PoolNotDistributedDetails {
  @ApiProperty({ type: 'string', example: POOL_ID_EXAMPLE })
  pool_id: string;

  @Cents(1200)
  total_cents: number;

  @Instant()
  created_at: string;

  @Instant('2026-11-07T21:47:05.118Z', 'Now less the payout grace period: the pool was created before it')
  due_before: string;
}

export class BelowFederalMinimumWageDetails {
  @ApiProperty({ type: 'string', description: 'The state the check was for, or `US`', example: 'TX' })
  state: string;

  @Cents(213, 'Cents an hour')
  hourly_wage_cents: number;

  @Cents(300, 'Cents an hour')
  average_tips_per_hour_cents: number;

  @Cents(725, 'Cents an hour, as the seed data stood at the check')
  federal_minimum_wage_cents: number;

  @Cents(212, 'What the employer owes on top, in cents an hour')
  hourly_shortfall_cents: number;

  @Instant()
  checked_at: string;
}

export const WAGE_THEFT_FLAG_TYPES = [
  'DOWNWARD_TIP_ADJUSTMENT',
  'PAYOUT_SHORTFALL',
  'POOL_FEWER_RECIPIENTS_THAN_CONTRIBUTORS',
  'POOL_NOT_DISTRIBUTED',
  'BELOW_FEDERAL_MINIMUM_WAGE',
] as const;
export type TipWageTheftFlagType = (typeof WAGE_THEFT_FLAG_TYPES)[number];

/** The shape of `details`, by flag type, for the OpenAPI document. */
export const WAGE_THEFT_DETAILS = [
  DownwardTipAdjustmentDetails,
  PayoutShortfallDetails,
  PoolFewerRecipientsDetails,
  PoolNotDistributedDetails,
  BelowFederalMinimumWageDetails,
] as const;

export class TipWageTheftFlag {
  @ApiProperty({
    enum: WAGE_THEFT_FLAG_TYPES,
    description:
      '`DOWNWARD_TIP_ADJUSTMENT`: a tip cut after it was recorded. `PAYOUT_SHORTFALL`: an employee paid out less than the tips (in no pool) due to them. ' +
      '`POOL_FEWER_RECIPIENTS_THAN_CONTRIBUTORS`: a distributed pool that paid fewer people than put tips in. `POOL_NOT_DISTRIBUTED`: a pool still open after the grace period. ' +
      '`BELOW_FEDERAL_MINIMUM_WAGE`: a tip-credit check whose wage plus tips is under the federal minimum wage.',
    example: 'DOWNWARD_TIP_ADJUSTMENT',
  })
  type: TipWageTheftFlagType;

  @MerchantId()
  merchant_id: string;

  @ApiProperty({ type: 'string', nullable: true, description: 'The employee concerned; null for pool flags, and for a check sent without one', example: 'ana' })
  employee_id: string | null;

  @ApiProperty({ type: 'string', description: 'For people', example: 'Tip TIP-2026-11-21-7K3M9QXA was cut from 2000 to 500 cents after it was recorded' })
  message: string;

  @ApiProperty({
    oneOf: WAGE_THEFT_DETAILS.map((details) => ({ $ref: getSchemaPath(details) })),
    description:
      'By `type`: DownwardTipAdjustmentDetails, PayoutShortfallDetails, PoolFewerRecipientsDetails, PoolNotDistributedDetails, BelowFederalMinimumWageDetails',
  })
  details: DownwardTipAdjustmentDetails | PayoutShortfallDetails | PoolFewerRecipientsDetails | PoolNotDistributedDetails | BelowFederalMinimumWageDetails;

  @ApiProperty({ type: [TipFlaggedRecord], description: 'The records behind the flag, each with its audit hash, so that an auditor can find and verify them in the chain' })
  records: TipFlaggedRecord[];
}

const record = (type: TipFlaggedRecord['type'], id: string, audit_hash: string): TipFlaggedRecord => ({ type, id, audit_hash });
const jsonRecord = (type: TipFlaggedRecord['type'], id: string, hash: string) =>
  `jsonb_build_object('type', '${type}', 'id', ${id}, 'audit_hash', ${hash})`;
/** The pool's tips as flagged records, oldest first. */
const POOL_TIPS = `(select coalesce(jsonb_agg(${jsonRecord('tip', 't.tip_id', 't.audit_hash')} order by t.chain_position), '[]')
  from rm_tips t where t.pool_id = p.pool_id) as tip_records`;

/**
 * GET /analytics/tip-wage-theft. `dueBefore`: tips recorded before it should have been paid out, and
 * pools created before it distributed, by now (the configured grace period).
 */
export async function wageTheftFlags(sql: Sql, merchantId: string | null, dueBefore: Date): Promise<TipWageTheftFlag[]> {
  return [
    ...(await downwardAdjustments(sql, merchantId)),
    ...(await payoutShortfalls(sql, merchantId, dueBefore)),
    ...(await poolFlags(sql, merchantId, dueBefore)),
    ...(await belowFederalMinimum(sql, merchantId)),
  ];
}

async function downwardAdjustments(sql: Sql, merchantId: string | null): Promise<TipWageTheftFlag[]> {
  const rows = await sql.query<{
    adjustment_id: string; tip_id: string; merchant_id: string; employee_id: string; previous: string; next: string;
    reason: string; adjusted_at: Date; adjusted_by: string | null; audit_hash: string; tip_hash: string;
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
  const rows = await sql.query<{ merchant_id: string; employee_id: string; due: string; paid: string | null; tips: TipFlaggedRecord[]; payouts: TipFlaggedRecord[] | null }>(
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
      details: { tips_due_cents: due, paid_out_cents: paid, shortfall_cents: due - paid, due_before: dueBefore.toISOString() },
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
        details: { pool_id: row.pool_id, total_cents: summary.total_cents, created_at: summary.created_at, due_before: dueBefore.toISOString() },
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
    check_id: string; merchant_id: string; employee_id: string | null; state: string; wage: string; tips: string; minimum: string; checked_at: Date; audit_hash: string;
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
