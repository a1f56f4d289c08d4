import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { FraudAssessmentDto } from '../transactions/fraud-signal.response.dto';
import {
  OVERRIDE_REASONS,
  VOID_REASONS,
  type OverrideReason,
  type VoidReason,
} from '../transactions/transaction.events';
import { countsBy } from '../platform/openapi/counts-by';
import {
  PENNY_ENDINGS,
  type ExpectedRounding,
  ExplicitModeUse,
  HonestRoundingExpectation,
  PennyEndings,
  RoundingAnalysis,
  RoundUpBias,
} from './rounding-analysis';
import { TOP_EMPLOYEES, type OverrideEmployee, type OverridePatterns } from './override-analysis';
import type { TopVoidEmployee, VoidRates, VoidShiftChange } from './void-analysis';
import type { RiskProfile } from './merchant-score';

/** The API schemas of a merchant's risk analyses; the analyses themselves (rounding-, override-, void-analysis.ts) are plain functions. */

export const OverrideReasonCounts = countsBy('OverrideReasonCounts', OVERRIDE_REASONS, {
  'manager-discretion': 29,
  'pricing-error': 6,
  'customer-request': 2,
});
export const VoidReasonCounts = countsBy('VoidReasonCounts', VOID_REASONS, {
  pricing_error: 21,
  customer_changed_mind: 18,
  employee_error: 9,
  duplicate_transaction: 5,
  fraud_suspected: 2,
});

@ApiSchema({ name: 'ExpectedRounding' })
export class ExpectedRoundingDto implements ExpectedRounding {
  @ApiProperty({
    type: 'number',
    minimum: 0,
    description: 'Sales expected to round up (fractional: an expectation)',
    example: 254,
  })
  rounded_up: number;

  @ApiProperty({ type: 'number', minimum: 0, description: 'Sales expected to round down', example: 226 })
  rounded_down: number;

  @ApiProperty({
    type: 'number',
    nullable: true,
    minimum: 0,
    maximum: 1,
    description: 'Expected share of the directional roundings that go up; null when none is expected',
    example: 0.5292,
  })
  up_ratio: number | null;
}

@ApiSchema({ name: 'HonestRoundingExpectation' })
export class HonestRoundingExpectationDto implements HonestRoundingExpectation {
  @ApiProperty({ description: 'If the penny endings were spread evenly: what honest rounding gives by chance' })
  uniform_endings: ExpectedRoundingDto;

  @ApiProperty({ description: 'With the penny endings the sales really had, rounded by the rule’s own mode' })
  actual_endings: ExpectedRoundingDto;
}

@ApiSchema({ name: 'RoundUpBias' })
export class RoundUpBiasDto implements RoundUpBias {
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'Directional roundings (up or down) under a rule that rounds both ways',
    example: 480,
  })
  sample: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Of those, the ones that went up', example: 301 })
  rounded_up: number;

  @ApiProperty({ type: 'number', minimum: 0, description: 'Round-ups honest rounding gives on average', example: 240 })
  expected_up: number;

  @ApiProperty({
    type: 'number',
    nullable: true,
    description:
      'z-score of the round-ups against that expectation, to 2 decimals; null without a sample. ROUND_UP_BIAS fires from 2, once the sample is 20 or more',
    example: 5.57,
  })
  z: number | null;
}

@ApiSchema({ name: 'PennyEndings' })
export class PennyEndingsDto implements PennyEndings {
  @ApiProperty({
    type: 'array',
    items: { type: 'integer', minimum: 0 },
    minItems: PENNY_ENDINGS,
    maxItems: PENNY_ENDINGS,
    description: 'Cash sales by the last digit of their cash before rounding, 0 to 9',
    example: [61, 58, 57, 75, 74, 59, 56, 55, 53, 52],
  })
  counts: number[];

  @ApiProperty({
    type: 'number',
    minimum: 0,
    description: 'Pearson’s chi-square of the counts against a uniform spread, to 2 decimals',
    example: 9.83,
  })
  chi_square: number;

  @ApiProperty({ type: 'integer', example: PENNY_ENDINGS - 1 })
  degrees_of_freedom: number;

  @ApiProperty({
    description: 'The endings make the rule round up more, net of down, than uniform endings would',
    example: true,
  })
  leans_to_round_up: boolean;
}

@ApiSchema({ name: 'ExplicitModeUse' })
export class ExplicitModeUseDto implements ExplicitModeUse {
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'Cash sales rounded under an explicit `cash_rounding_mode` rather than the rule’s',
    example: 0,
  })
  sales: number;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'Sales where the explicit mode collected more than the rule’s mode would have',
    example: 0,
  })
  favoured_sales: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'How much more in all, cents', example: 0 })
  favoured_cents: number;
}

@ApiSchema({ name: 'RoundingAnalysis' })
export class RoundingAnalysisDto implements RoundingAnalysis {
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Sales recorded', example: 640 })
  sales: number;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'Sales with a cash portion: the only ones rounded',
    example: 600,
  })
  cash_sales: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Cash sales rounded up', example: 301 })
  rounded_up: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Cash sales rounded down', example: 179 })
  rounded_down: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Cash sales rounding left as they were', example: 120 })
  unchanged: number;

  @ApiProperty({
    type: 'number',
    nullable: true,
    minimum: 0,
    maximum: 1,
    description: 'Share of the directional roundings that went up, to 4 decimals; null without any',
    example: 0.6271,
  })
  up_ratio: number | null;

  @ApiProperty({
    type: 'number',
    nullable: true,
    minimum: 0,
    maximum: 1,
    description: 'Share that went down; null without any',
    example: 0.3729,
  })
  down_ratio: number | null;

  @ApiProperty({
    type: 'integer',
    description:
      'Σ rounding delta of the cash sales as calculated, cents: positive, customers paid more (overrides are in the override patterns)',
    example: 244,
  })
  net_rounding_cents: number;

  @ApiProperty()
  expected_under_honest_rounding: HonestRoundingExpectationDto;

  @ApiProperty()
  round_up_bias: RoundUpBiasDto;

  @ApiProperty()
  penny_endings: PennyEndingsDto;

  @ApiProperty()
  explicit_mode: ExplicitModeUseDto;
}

@ApiSchema({ name: 'OverrideEmployee' })
export class OverrideEmployeeDto implements OverrideEmployee {
  @ApiProperty({ example: 'emp-7' })
  employee_id: string;

  @ApiProperty({ description: 'The name on the employee’s latest override, verbatim', example: 'J. Doe' })
  employee_name: string;

  @ApiProperty({ type: 'integer', minimum: 1, example: 31 })
  overrides: number;

  @ApiProperty({
    type: 'integer',
    description: 'Σ new cash total minus calculated cash total of the employee’s overrides, cents',
    example: 131,
  })
  total_delta_cents: number;
}

@ApiSchema({ name: 'OverridePatterns' })
export class OverridePatternsDto implements OverridePatterns {
  @ApiProperty({ type: 'integer', minimum: 0, example: 37 })
  overrides: number;

  @ApiProperty({
    type: 'number',
    nullable: true,
    minimum: 0,
    description: 'Overrides per sale, to 4 decimals; null without sales',
    example: 0.0578,
  })
  frequency: number | null;

  @ApiProperty({ type: OverrideReasonCounts, description: 'Overrides by reason code' })
  by_reason: Record<OverrideReason, number>;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Overrides above the calculated cash total', example: 35 })
  raised: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Overrides below it', example: 2 })
  lowered: number;

  @ApiProperty({
    type: 'integer',
    description:
      'Σ new cash total minus calculated cash total, cents: positive, customers paid more than the calculation',
    example: 148,
  })
  total_delta_cents: number;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description:
      'Mean delta between calculated and overridden cash totals, cents, rounded half away from zero; null without overrides',
    example: 4,
  })
  average_delta_cents: number | null;

  @ApiProperty({
    type: [OverrideEmployeeDto],
    description: `The employees with the most overrides, most first, at most ${TOP_EMPLOYEES}`,
  })
  top_employees: OverrideEmployeeDto[];
}

@ApiSchema({ name: 'VoidShiftChange' })
export class VoidShiftChangeDto implements VoidShiftChange {
  @ApiProperty({
    type: 'array',
    items: { type: 'integer', minimum: 0, maximum: 23 },
    description: 'The configured shift changes, as hours of the day (UTC)',
    example: [6, 14, 22],
  })
  hours: number[];

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'A void within this many minutes of a shift change, either side, counts as at it',
    example: 30,
  })
  window_minutes: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Voids at a shift change', example: 19 })
  voids: number;

  @ApiProperty({
    type: 'number',
    nullable: true,
    minimum: 0,
    maximum: 1,
    description: 'Their share of the voids, to 4 decimals; null without voids',
    example: 0.3455,
  })
  share: number | null;

  @ApiProperty({
    type: 'number',
    minimum: 0,
    maximum: 1,
    description: 'The share of the day the windows cover: what voids spread evenly over the day would show',
    example: 0.125,
  })
  expected_share: number;

  @ApiProperty({
    type: 'number',
    nullable: true,
    description:
      'z-score of the voids at a shift change against that share, to 2 decimals; null without voids. VOIDS_AT_SHIFT_CHANGE fires from 3, with 3 such voids or more',
    example: 4.94,
  })
  z: number | null;
}

@ApiSchema({ name: 'TopVoidEmployee' })
export class TopVoidEmployeeDto implements TopVoidEmployee {
  @ApiProperty({ example: 'emp-7' })
  employee_id: string;

  @ApiProperty({ type: 'integer', minimum: 1, example: 38 })
  voids: number;

  @ApiProperty({
    type: 'number',
    nullable: true,
    minimum: 0,
    maximum: 1,
    description: 'Their share of the merchant’s voids, to 4 decimals',
    example: 0.6909,
  })
  share: number | null;
}

@ApiSchema({ name: 'VoidRates' })
export class VoidRatesDto implements VoidRates {
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Sales recorded', example: 600 })
  sales: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Sales voided', example: 55 })
  voids: number;

  @ApiProperty({
    type: 'number',
    nullable: true,
    minimum: 0,
    description: 'Voids per sale, to 4 decimals; null without sales',
    example: 0.0917,
  })
  void_rate: number | null;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'Σ cash total of the sales as calculated, cents',
    example: 731_450,
  })
  sales_cents: number;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'Σ cash total the voids reversed, cents, as a positive amount',
    example: 61_040,
  })
  voided_cents: number;

  @ApiProperty({
    type: 'number',
    nullable: true,
    minimum: 0,
    description: 'Voided cash over sales cash, to 4 decimals; null without sales cash',
    example: 0.0835,
  })
  void_amount_rate: number | null;

  @ApiProperty({ type: 'integer', minimum: 0, example: 23 })
  refunds: number;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'Σ cash the refunds handed back, cents, as a positive amount',
    example: 19_880,
  })
  refunded_cents: number;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'Refunds that failed the normalization check: their rounding moved the same way as the sale’s',
    example: 4,
  })
  normalization_failures: number;

  @ApiProperty({
    type: 'number',
    nullable: true,
    minimum: 0,
    maximum: 1,
    description: 'Normalization failures per refund, to 4 decimals; null without refunds',
    example: 0.1739,
  })
  normalization_failure_rate: number | null;

  @ApiProperty({
    type: 'array',
    items: { type: 'integer', minimum: 0 },
    minItems: 24,
    maxItems: 24,
    description: 'Voids by hour of the day (UTC), 0 to 23',
    example: [0, 0, 0, 0, 0, 0, 3, 1, 1, 1, 1, 1, 1, 8, 19, 1, 1, 1, 1, 1, 1, 1, 12, 0],
  })
  voids_by_hour: number[];

  @ApiProperty({ type: VoidReasonCounts, description: 'Voids by reason code' })
  voids_by_reason: Record<VoidReason, number>;

  @ApiProperty()
  shift_change: VoidShiftChangeDto;

  @ApiProperty({
    type: TopVoidEmployeeDto,
    nullable: true,
    description:
      'The employee who authorized the most voids; null without voids, and always null in platform totals (employee ids are each merchant’s own)',
  })
  top_employee: TopVoidEmployeeDto | null;
}

/** The risk profile's schema (a base class of the answer, not a schema of its own). */
export class RiskProfileDto extends FraudAssessmentDto implements RiskProfile {
  @ApiProperty({ example: 'm-quickstop-042' })
  merchant_id: string;

  @ApiProperty({
    description: 'Round-ups against round-downs, what honest rounding would give, and the penny-ending distribution',
  })
  rounding_analysis: RoundingAnalysisDto;

  @ApiProperty({
    description:
      'Override frequency, reasons, the delta between calculated and overridden cash totals, and who overrode',
  })
  override_patterns: OverridePatternsDto;

  @ApiProperty({
    description:
      'Void and refund counts, rates and amounts, normalization failures, and when and by whom voids were made',
  })
  void_rates: VoidRatesDto;
}
