import { ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { POOL_ID_EXAMPLE, TIP_ID_EXAMPLE, TipDoc } from './tip-doc';

const { AuditHash, MerchantId, Instant, Cents } = TipDoc;

export const FLAGGED_RECORD_TYPES = [
  'tip',
  'tip_adjustment',
  'tip_payout',
  'tip_pool',
  'tip_pool_distribution',
  'tip_credit_check',
] as const;
export type TipFlaggedRecordType = (typeof FLAGGED_RECORD_TYPES)[number];

/** A record behind a flag, as the audit log knows it. */
export class TipFlaggedRecord {
  @ApiProperty({
    enum: FLAGGED_RECORD_TYPES,
    description: '`tip_pool_distribution`: the distribution of the pool `id`',
    example: 'tip',
  })
  type: TipFlaggedRecordType;

  @ApiProperty({
    type: 'string',
    description: 'The record’s id, as its creating operation answered it (a pool’s id for its distribution)',
    example: TIP_ID_EXAMPLE,
  })
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

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'The `id` of the API key that made the adjustment',
    example: 'key_7Qm2VxR9tLp4Kd8Nw3Zb',
  })
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

  @ApiProperty({
    type: 'array',
    items: { type: 'string', example: 'cy' },
    description: 'The employees whose tips went in',
  })
  contributors: string[];

  @ApiProperty({
    type: 'array',
    items: { type: 'string', example: 'cy' },
    description: 'The participants the pool paid',
  })
  recipients: string[];

  @ApiProperty({
    type: 'array',
    items: { type: 'string', example: 'di' },
    description: 'Contributors the pool did not pay',
  })
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

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'The employee concerned; null for pool flags, and for a check sent without one',
    example: 'ana',
  })
  employee_id: string | null;

  @ApiProperty({
    type: 'string',
    description: 'For people',
    example: 'Tip TIP-2026-11-21-7K3M9QXA was cut from 2000 to 500 cents after it was recorded',
  })
  message: string;

  @ApiProperty({
    oneOf: WAGE_THEFT_DETAILS.map((details) => ({ $ref: getSchemaPath(details) })),
    description:
      'By `type`: DownwardTipAdjustmentDetails, PayoutShortfallDetails, PoolFewerRecipientsDetails, PoolNotDistributedDetails, BelowFederalMinimumWageDetails',
  })
  details:
    | DownwardTipAdjustmentDetails
    | PayoutShortfallDetails
    | PoolFewerRecipientsDetails
    | PoolNotDistributedDetails
    | BelowFederalMinimumWageDetails;

  @ApiProperty({
    type: [TipFlaggedRecord],
    description:
      'The records behind the flag, each with its audit hash, so that an auditor can find and verify them in the chain',
  })
  records: TipFlaggedRecord[];
}

export class TipWageTheftResponse {
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'The merchant asked for; null: every merchant',
    example: 'm-corner-deli-01',
  })
  merchant_id: string | null;

  @ApiProperty({ type: 'string', format: 'date-time', example: '2026-11-21T21:47:05.118Z' })
  as_of: string;

  /** Tips recorded and pools created before this were due by now. */
  @ApiProperty({
    type: 'string',
    format: 'date-time',
    description:
      '`as_of` less `payout_grace_days`: tips recorded and pools created before this were due to be paid out and distributed by now',
    example: '2026-11-07T21:47:05.118Z',
  })
  due_before: string;

  @ApiProperty({
    type: 'integer',
    minimum: 1,
    description: 'The configured grace period in days (TIP_PAYOUT_GRACE_DAYS)',
    example: 14,
  })
  payout_grace_days: number;

  @ApiProperty({ type: 'integer', minimum: 0, example: 1 })
  flag_count: number;

  @ApiProperty({
    type: [TipWageTheftFlag],
    description: 'Downward adjustments, then payout shortfalls, then pool flags, then checks under the federal minimum',
  })
  flags: TipWageTheftFlag[];
}
