/**
 * A merchant's overrides of the calculated cash total: how often, why, by how much and by whom, and
 * the override signals. Pure, from the per-merchant totals of the override-report read model.
 */

import { OVERRIDE_REASONS, type OverrideReason } from '../transactions/transaction.events';
import { fired, RATE_MIN_SALES, signal, type FraudSignal } from '../rules/fraud-signals';
import { ratio } from '../rules/statistics';

/** How many employees the patterns name. */
export const TOP_EMPLOYEES = 5;
/** Raising the cash total is a correction once or twice; more often it is a habit. */
const RAISES_MIN = 3;

export interface OverrideEmployee {
  employee_id: string;
  /** The name on the employee's latest override, verbatim. */
  employee_name: string;
  overrides: number;
  total_delta_cents: number;
}

/** Overrides by reason code, every reason listed. */

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

export interface OverridePatterns {
  overrides: number;
  /** Overrides per sale. */
  frequency: number | null;
  by_reason: Record<OverrideReason, number>;
  raised: number;
  lowered: number;
  total_delta_cents: number;
  average_delta_cents: number | null;
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
      ? signal(
          'OVERRIDE_FREQUENCY',
          patterns.frequency!,
          `${patterns.overrides} overrides on ${sales} sales (${patterns.frequency} per sale)`,
        )
      : undefined,
    signal(
      'OVERRIDES_RAISE_CASH',
      patterns.raised >= RAISES_MIN && patterns.raised > patterns.lowered,
      `${patterns.raised} of ${patterns.overrides} overrides raised the cash total above the calculation (${patterns.total_delta_cents} cents net)`,
    ),
  ]);
}
