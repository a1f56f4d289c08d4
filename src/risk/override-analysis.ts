/**
 * A merchant's overrides of the calculated cash total: how often, why, by how much and by whom, and
 * the override signals. Pure, from the per-merchant totals of the override-report read model.
 */

import { ApiProperty } from '@nestjs/swagger';
import { OVERRIDE_REASONS, type OverrideReason } from '../transactions';
import { countsBy } from './counts-by';
import { fired, RATE_MIN_SALES, signal, type FraudSignal } from '../rules/fraud-signals';
import { ratio } from '../rules/statistics';

/** How many employees the patterns name. */
export const TOP_EMPLOYEES = 5;
/** Raising the cash total is a correction once or twice; more often it is a habit. */
const RAISES_MIN = 3;

export class OverrideEmployee {
  @ApiProperty({ example: 'emp-7' })
  employee_id: string;

  /** The name on the employee's latest override, verbatim. */
  @ApiProperty({ description: 'The name on the employee’s latest override, verbatim', example: 'J. Doe' })
  employee_name: string;

  @ApiProperty({ type: 'integer', minimum: 1, example: 31 })
  overrides: number;

  @ApiProperty({ type: 'integer', description: 'Σ new cash total minus calculated cash total of the employee’s overrides, cents', example: 131 })
  total_delta_cents: number;
}

/** Overrides by reason code, every reason listed. */
export const OverrideReasonCounts = countsBy('OverrideReasonCounts', OVERRIDE_REASONS, { 'manager-discretion': 29, 'pricing-error': 6, 'customer-request': 2 });

/** Every delta is an override's new cash total minus the sale's calculated one. */
export interface OverrideActivity {
  overrides: number;
  /** Overrides above, and below, the calculated cash total. */
  raised: number;
  lowered: number;
  total_delta_cents: number;
  by_reason: Record<OverrideReason, number>;
  /** Most overrides first, at most TOP_EMPLOYEES. */
  employees: OverrideEmployee[];
}

export const NO_OVERRIDES: OverrideActivity = {
  overrides: 0,
  raised: 0,
  lowered: 0,
  total_delta_cents: 0,
  by_reason: Object.fromEntries(OVERRIDE_REASONS.map((reason) => [reason, 0])) as Record<OverrideReason, number>,
  employees: [],
};

export class OverridePatterns {
  @ApiProperty({ type: 'integer', minimum: 0, example: 37 })
  overrides: number;

  /** Overrides per sale. */
  @ApiProperty({ type: 'number', nullable: true, minimum: 0, description: 'Overrides per sale, to 4 decimals; null without sales', example: 0.0578 })
  frequency: number | null;

  @ApiProperty({ type: OverrideReasonCounts, description: 'Overrides by reason code' })
  by_reason: Record<OverrideReason, number>;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Overrides above the calculated cash total', example: 35 })
  raised: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Overrides below it', example: 2 })
  lowered: number;

  @ApiProperty({ type: 'integer', description: 'Σ new cash total minus calculated cash total, cents: positive, customers paid more than the calculation', example: 148 })
  total_delta_cents: number;

  @ApiProperty({ type: 'integer', nullable: true, description: 'Mean delta between calculated and overridden cash totals, cents, rounded half away from zero; null without overrides', example: 4 })
  average_delta_cents: number | null;

  @ApiProperty({ type: [OverrideEmployee], description: `The employees with the most overrides, most first, at most ${TOP_EMPLOYEES}` })
  top_employees: OverrideEmployee[];
}

/** A mean of deltas in integer cents, rounded half away from zero; null for none. */
export function averageCents(totalCents: number, count: number): number | null {
  return count === 0 ? null : Math.sign(totalCents) * Math.round(Math.abs(totalCents) / count);
}

export function overridePatterns(activity: OverrideActivity, sales: number): OverridePatterns {
  const { overrides, total_delta_cents: total } = activity;
  return {
    overrides,
    frequency: ratio(overrides, sales),
    by_reason: activity.by_reason,
    raised: activity.raised,
    lowered: activity.lowered,
    total_delta_cents: total,
    average_delta_cents: averageCents(total, overrides),
    top_employees: activity.employees,
  };
}

export function overrideSignals(patterns: OverridePatterns, sales: number): FraudSignal[] {
  return fired([
    sales >= RATE_MIN_SALES
      ? signal('OVERRIDE_FREQUENCY', patterns.frequency!, `${patterns.overrides} overrides on ${sales} sales (${patterns.frequency} per sale)`)
      : undefined,
    signal(
      'OVERRIDES_RAISE_CASH',
      patterns.raised >= RAISES_MIN && patterns.raised > patterns.lowered,
      `${patterns.raised} of ${patterns.overrides} overrides raised the cash total above the calculation (${patterns.total_delta_cents} cents net)`,
    ),
  ]);
}
