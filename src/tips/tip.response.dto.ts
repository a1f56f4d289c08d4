// The schemas of the tip commands' answers; tip-views.ts makes them from the events.
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CONFIDENCES, type Confidence } from '../rules/jurisdiction-rule';
import {
  TIP_CREDIT_REQUIREMENTS,
  TIP_CREDIT_STATUSES,
  TIP_CREDIT_UNKNOWN_REASONS,
  type TipCreditRequirement,
  type TipCreditRequirementCode,
  type TipCreditStatus,
  type TipCreditUnknown,
  type TipCreditUnknownReason,
} from '../rules/tip-credit';
import type { HistoryEntry } from '../transactions/transaction.response.dto';
import { TipCreditRuleDto } from './tip-credit-rule.response.dto';
import { POOL_ID_EXAMPLE, TIP_ID_EXAMPLE, TipDoc } from './tip-doc';
import {
  PAYOUT_METHODS,
  TIP_EVENT_TYPES,
  TIP_METHODS,
  type PayoutMethod,
  type PoolMethod,
  type PoolParticipant,
  type PoolShare,
  type TipCreditCheckedData,
  type TipPaidOutData,
  type TipPoolDistributedData,
  type TipPooledData,
  type TipRecordedData,
  type TipMethod,
} from './tip.events';
import { POSITIVE } from './tip-fields';
import { POOL_ID_PATTERN, TIP_ID_PATTERN, TIP_ID_PREFIX as PREFIX } from './tip-ids';

const {
  AuditHash,
  ChainPosition,
  MerchantId,
  Instant,
  Cents,
  RecordId,
  PoolId,
  PoolName,
  DistributionMethod,
  EXAMPLE_TIME,
} = TipDoc;

/** An entry of a tip's stream in the chain (its recording, then each adjustment), as a transaction's history shows its own. */
export class TipHistoryEntry implements HistoryEntry {
  @ApiProperty({ enum: TIP_EVENT_TYPES, description: 'The event of the entry', example: 'TipRecorded' })
  event: string;

  @ChainPosition()
  chain_position: number;

  @AuditHash('The hash of the entry')
  audit_hash: string;

  @Instant()
  recorded_at: string;
}

/** A tip as the API shows it, at its current amount; `history` is its entries in the chain, adjustments included. */
export class TipView implements Omit<TipRecordedData, 'tip_id' | 'recorded_at'> {
  @RecordId(PREFIX.tip, TIP_ID_EXAMPLE)
  id: string;

  @MerchantId()
  merchant_id: string;

  @ApiProperty({ type: 'string', example: 'TXN-2026-11-21-8F3K2Q7M', description: 'The sale the tip was left on' })
  transaction_id: string;

  @ApiProperty({
    enum: TIP_METHODS,
    description: 'Which route recorded it: `POST /tip/cash` or `POST /tip/credit-card`',
    example: 'credit_card',
  })
  method: TipMethod;

  @ApiProperty({ type: 'string', example: 'emp-0042' })
  employee_id: string;

  @ApiProperty({ type: 'string', example: 'Ana Ruiz' })
  employee_name: string;

  @Cents(425, 'The current amount, after every adjustment; a fraction of a cent sent was rounded up')
  amount_cents: number;

  @Cents(350, 'The amount as first recorded')
  original_amount_cents: number;

  @ApiProperty({
    type: 'boolean',
    description:
      'True when the tip is more than the total of its sale and more than $20.00: a signal, not a refusal (a generous ' +
      'tip is lawful, and the service cannot tell it from a keying error or a laundered payment). The sale is then in ' +
      '`tips_beyond_sale` of `GET /analytics/tips`, which sums every tip of a sale',
    example: false,
  })
  exceeds_sale: boolean;

  @ApiProperty({
    type: 'string',
    nullable: true,
    pattern: POOL_ID_PATTERN.source,
    description: 'The pool the tip went into; null while it is in none. A pooled tip can no longer be adjusted.',
    example: null,
  })
  pool_id: string | null;

  @Instant(EXAMPLE_TIME, 'When the tip was recorded')
  created_at: string;

  @AuditHash('The hash of the entry that recorded the tip (adjustments are in `history`)')
  auditHash: string;

  @ChainPosition()
  chain_position: number;

  @ApiProperty({
    type: [TipHistoryEntry],
    description: 'The tip’s entries in the chain, oldest first: its recording, then each adjustment',
  })
  history: TipHistoryEntry[];
}

export class TipAdjustmentView {
  @RecordId(PREFIX.adjustment, 'TIPADJ-2026-11-21-5WQ8N1RT')
  id: string;

  @ApiProperty({ type: 'string', pattern: TIP_ID_PATTERN.source, example: TIP_ID_EXAMPLE })
  tip_id: string;

  @Cents(350)
  previous_amount_cents: number;

  @Cents(425, 'A fraction of a cent sent was rounded up; 0 for a tip charged back in full')
  new_amount_cents: number;

  @ApiProperty({
    type: 'string',
    description: 'As sent, recorded verbatim in the audit trail',
    example: 'Guest corrected the tip on the signed slip',
  })
  reason: string;

  @Instant()
  adjusted_at: string;

  @AuditHash('The hash of the adjustment’s entry in the audit chain')
  auditHash: string;

  @ChainPosition()
  chain_position: number;
}

export class TipPayoutView implements Omit<TipPaidOutData, 'payout_id'> {
  @RecordId(PREFIX.payout, 'PAYOUT-2026-11-21-9D2KXH4P')
  id: string;

  @MerchantId()
  merchant_id: string;

  @ApiProperty({ type: 'string', example: 'emp-0042' })
  employee_id: string;

  @ApiProperty({ type: 'string', example: 'Ana Ruiz' })
  employee_name: string;

  @Cents(4550, 'A fraction of a cent sent was rounded up')
  amount_cents: number;

  @ApiProperty({ enum: PAYOUT_METHODS, example: 'cash' })
  payout_method: PayoutMethod;

  @Instant()
  paid_at: string;

  @AuditHash('The hash of the payout’s entry in the audit chain')
  auditHash: string;

  @ChainPosition()
  chain_position: number;
}

/** A participant as the pool recorded it: `weight` in weighted pools, `hours` in hours-based ones, neither in equal ones. */
export class TipPoolParticipantView implements PoolParticipant {
  @ApiProperty({ type: 'string', example: 'emp-0042' })
  employeeId: string;

  @ApiProperty({ type: 'string', example: 'Ana Ruiz' })
  employeeName: string;

  @ApiPropertyOptional({ type: 'number', ...POSITIVE, description: 'Weighted pools only', example: 2 })
  weight?: number;

  @ApiPropertyOptional({ type: 'number', ...POSITIVE, description: 'Hours-based pools only', example: 7.5 })
  hours?: number;
}

export class TipPoolShareView extends TipPoolParticipantView implements PoolShare {
  @Cents(1001, 'The participant’s exact fraction of the pool, rounded up to the cent in the employee’s favour')
  share_cents: number;
}

export const TIP_POOL_STATUSES = ['open', 'distributed'] as const;
export type TipPoolStatus = (typeof TIP_POOL_STATUSES)[number];

export class TipPoolView implements Omit<TipPooledData, 'pool_id' | 'tips'> {
  @RecordId(PREFIX.pool, POOL_ID_EXAMPLE)
  id: string;

  @MerchantId()
  merchant_id: string;

  @PoolName()
  pool_name: string;

  @DistributionMethod()
  distribution_method: PoolMethod;

  @ApiProperty({ enum: ['open'], description: 'A new pool is open until `POST /tip/pool/distribute`', example: 'open' })
  status: 'open';

  @ApiProperty({
    type: 'array',
    items: { type: 'string', pattern: TIP_ID_PATTERN.source, example: TIP_ID_EXAMPLE },
    description: 'As sent',
  })
  tip_ids: string[];

  @Cents(3001, 'The pooled tips’ amounts when pooled: fixed from now on')
  total_cents: number;

  @ApiProperty({ type: [TipPoolParticipantView], description: 'As sent, each with only the field its method uses' })
  participants: TipPoolParticipantView[];

  @ApiProperty({
    type: 'array',
    items: { type: 'string', example: 'emp-0042' },
    description:
      'The employees whose tips went in, in order of first appearance. GET /analytics/tip-wage-theft flags a pool that pays fewer people than this.',
  })
  contributors: string[];

  @Instant()
  created_at: string;

  @AuditHash('The hash of the pool’s entry in the audit chain')
  auditHash: string;

  @ChainPosition()
  chain_position: number;
}

/** A share with the payout entry the distribution made for it. */
export class TipDistributionShareView extends TipPoolShareView {
  @AuditHash('The hash of this share’s own payout entry in the audit chain')
  audit_hash: string;

  @ChainPosition()
  chain_position: number;
}

export class TipDistributionView implements Omit<TipPoolDistributedData, 'shares'> {
  @PoolId()
  pool_id: string;

  @MerchantId()
  merchant_id: string;

  @DistributionMethod()
  distribution_method: PoolMethod;

  @Cents(3001, 'What the pooled tips hold')
  total_cents: number;

  @Cents(3003, 'The sum of the shares paid')
  total_distributed_cents: number;

  @Cents(2, '`total_distributed_cents - total_cents`: what rounding every share up costs the employer; never negative')
  rounding_adjustment_cents: number;

  /** Each participant's share with its own payout entry in the chain. */
  @ApiProperty({
    type: [TipDistributionShareView],
    description: 'Each participant’s share, in the order of `participants`',
  })
  shares: TipDistributionShareView[];

  @Instant()
  distributed_at: string;

  @AuditHash('The hash of the distribution’s summary entry; each share has a payout entry of its own')
  auditHash: string;

  @ChainPosition()
  chain_position: number;
}

/** A requirement with its amounts in dollars too, as the caller sent them. */
export class TipCreditRequirementView implements TipCreditRequirement {
  @ApiProperty({
    enum: TIP_CREDIT_REQUIREMENTS,
    description: 'Stable code of the requirement',
    example: 'FLSA_MINIMUM_WAGE',
  })
  requirement: TipCreditRequirementCode;

  @ApiProperty({
    type: 'string',
    description: '`US` for FLSA, a state’s code, or a city with its state (`Chicago, IL`)',
    example: 'US',
  })
  jurisdiction: string;

  @ApiProperty({ type: 'string', example: 'FLSA minimum wage, cash wage plus tips' })
  description: string;

  @Cents(725, 'Cents an hour')
  required_cents: number;

  @Cents(725, 'Cents an hour: the cash wage, or the cash wage plus average tips, as the requirement reads')
  actual_cents: number;

  @ApiProperty({ type: 'boolean', description: '`actual_cents >= required_cents`', example: true })
  met: boolean;

  @ApiProperty({ type: 'number', description: '`required_cents` in dollars an hour', example: 7.25 })
  required: number;

  @ApiProperty({ type: 'number', description: '`actual_cents` in dollars an hour', example: 7.25 })
  actual: number;
}

/** What a check could not settle, and where. */
export class TipCreditUnknownView implements TipCreditUnknown {
  @ApiProperty({
    enum: TIP_CREDIT_UNKNOWN_REASONS,
    description:
      'Stable code: `LOCAL_MINIMUM_UNKNOWN` (the place lies in a city or county with its own minimum-wage law whose figures in force are not in the rule data; ' +
      'the state’s are never used in their place), `STATE_MINIMUM_UNKNOWN` (the same for the state’s or its region’s figures), `REGION_AMBIGUOUS` ' +
      '(the state sets its figures by region, no county was named, and the verdict differs by region)',
    example: 'LOCAL_MINIMUM_UNKNOWN',
  })
  reason: TipCreditUnknownReason;

  @ApiProperty({
    type: 'string',
    description: 'A state’s code, a region of it, or a county or city with its state',
    example: 'Chicago, IL',
  })
  jurisdiction: string;

  @ApiProperty({
    type: 'string',
    example: 'Chicago, IL minimum cash wage for tipped employees: the figure in force is not in the rule data',
  })
  description: string;
}

/** A tip credit entry of the seed data (seeds/tip-credit-rules.json), as it stood at the check. Amounts in dollars an hour. */
export class TipCreditRulesApplied {
  @ApiProperty({ type: TipCreditRuleDto, description: 'The FLSA entry (`US`)' })
  federal: TipCreditRuleDto;

  @ApiProperty({
    type: TipCreditRuleDto,
    description:
      'The state’s entry, its region’s where the place lies in one (New York’s downstate counties); the FLSA entry again when `state` is `US`',
  })
  state: TipCreditRuleDto;

  @ApiProperty({
    type: TipCreditRuleDto,
    nullable: true,
    description: 'The most local own entry in force: the city’s, else the county’s; null where there is none',
  })
  local: TipCreditRuleDto | null;

  @ApiProperty({
    type: [TipCreditRuleDto],
    description:
      'Where the state sets its figures by region and no county was named: each region’s entry weighed beside the statewide one (`state` is the one the answer is shown under); empty otherwise',
  })
  regions: TipCreditRuleDto[];
}

export class TipCreditCheckView implements Omit<
  TipCreditCheckedData,
  'check_id' | 'requirements' | 'city' | 'county' | 'zip_code' | 'rules'
> {
  @RecordId(PREFIX.creditCheck, 'TIPCHECK-2026-11-21-6RZ4B8VE')
  id: string;

  @MerchantId()
  merchant_id: string;

  @ApiProperty({ type: 'string', nullable: true, description: 'As sent; null when not sent', example: 'emp-0042' })
  employee_id: string | null;

  @ApiProperty({ type: 'string', description: 'The state checked, upper case, or `US`', example: 'TX' })
  state: string;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'The city as sent or as the ZIP gives it, for a local rule; null when neither gave one',
    example: null,
  })
  city: string | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description:
      'The county as sent or as the ZIP gives it, for a region’s or a county’s rule; null when neither gave one',
    example: null,
  })
  county: string | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'The ZIP code as sent; null when none was sent',
    example: null,
  })
  zip_code: string | null;

  @Cents(213, 'The cash wage in cents an hour; a fraction of a cent sent was dropped')
  hourly_wage_cents: number;

  @Cents(512, 'Average tips in cents an hour; a fraction of a cent sent was dropped')
  average_tips_per_hour_cents: number;

  @ApiProperty({
    enum: TIP_CREDIT_STATUSES,
    description:
      '`non_compliant` when a requirement checked is not met (whatever else is unknown); else `unknown` when the rule data cannot settle the check (`unknowns` says what); else `compliant`',
    example: 'compliant',
  })
  status: TipCreditStatus;

  @ApiProperty({
    type: 'boolean',
    nullable: true,
    description: '`status` as a boolean: true when compliant, false when non_compliant, null when unknown',
    example: true,
  })
  compliant: boolean | null;

  @ApiProperty({
    enum: TIP_CREDIT_UNKNOWN_REASONS,
    nullable: true,
    description: 'When `status` is unknown, the first reason of `unknowns`; null otherwise',
    example: null,
  })
  reason: TipCreditUnknownReason | null;

  @ApiProperty({
    type: [TipCreditUnknownView],
    description:
      'What the rule data could not settle: a figure a binding law needs and the data lacks, or a region not named; empty when nothing is unknown',
  })
  unknowns: TipCreditUnknownView[];

  @ApiProperty({
    enum: CONFIDENCES,
    description:
      'The least confidence of the records applied (`rules`): a verdict is no surer than its least sure record',
    example: 'medium',
  })
  confidence: Confidence;

  @ApiProperty({
    type: [TipCreditRequirementView],
    description: 'Every requirement checked: FLSA’s, then the state’s, then the city’s',
  })
  requirements: TipCreditRequirementView[];

  /** The requirements not met, each with what it required and what it got. */
  @ApiProperty({
    type: [TipCreditRequirementView],
    description: 'The requirements not met, each with what it required and what it got; empty when compliant',
  })
  failures: TipCreditRequirementView[];

  @ApiProperty({
    type: 'array',
    items: {
      type: 'string',
      example:
        "Springfield, IL: no local minimum-wage record in the rule data; checked under the state's and FLSA's records",
    },
    description:
      'What the answer rests on beyond the requirements, such as a place without a local record in the rule data',
  })
  notes: string[];

  @ApiProperty({
    type: TipCreditRulesApplied,
    description: 'The seed entries applied, with their sources, as they stood at the check',
  })
  rules: TipCreditRulesApplied;

  @ApiProperty({
    type: [String],
    description:
      'The entries applied, by name, most general first: `US`, the state or its region (`NY: New York City, Long Island and Westchester`), then a county’s or city’s own',
    example: ['US', 'NY: New York City, Long Island and Westchester'],
  })
  applied: string[];

  @Instant()
  checked_at: string;

  @AuditHash('The hash of the check’s entry in the audit chain')
  auditHash: string;

  @ChainPosition()
  chain_position: number;
}
