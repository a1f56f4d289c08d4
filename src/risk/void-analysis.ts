/**
 * A merchant's voids and refunds: rates, timing and who authorized them, and the void-abuse signals.
 * Pure, from the per-merchant counts of the void-analytics read model.
 */

import { VOID_REASONS, type VoidReason } from '../transactions/transaction.events';
import { fired, RATE_MIN_SALES, signal, type FraudSignal, type FraudSignalCode } from '../rules/fraud-signals';
import { ratio, round, zScore } from '../rules/statistics';
import type { ShiftChanges } from '../platform/config/config';

const DAY_SECONDS = 86_400;
/** A cluster needs a few voids: one or two at a shift change are chance. */
const SHIFT_CLUSTER_MIN_VOIDS = 3;
/** One employee's share means something only once there are a few voids to share. */
const CONCENTRATION_MIN_VOIDS = 5;

/** A void `secondOfDay` seconds after midnight UTC is at a shift change when it is within the window of one, either side, across midnight too. */
export function isNearShiftChange(secondOfDay: number, shift: ShiftChanges): boolean {
  return shift.hours.some((hour) => {
    const apart = Math.abs(secondOfDay - hour * 3600);
    return Math.min(apart, DAY_SECONDS - apart) <= shift.windowMinutes * 60;
  });
}

/**
 * The share of the day the windows cover, what honest voids spread over the day would show: each
 * shift change covers the window either side, less where it meets the next one round the clock.
 */
export function shiftWindowShare(shift: ShiftChanges): number {
  const starts = [...new Set(shift.hours)].map((hour) => hour * 3600).sort((a, b) => a - b);
  const covered = starts.reduce((sum, start, i) => {
    const gap = i + 1 < starts.length ? starts[i + 1] - start : starts[0] + DAY_SECONDS - start;
    return sum + Math.min(gap, 2 * shift.windowMinutes * 60);
  }, 0);
  return Math.min(1, covered / DAY_SECONDS);
}

export interface VoidActivity {
  sales: number;
  /** Σ cash total of the sales as calculated. */
  sales_cents: number;
  voids: number;
  /** Σ cash total the voids reversed, as a positive amount; likewise refunds. */
  voided_cents: number;
  refunds: number;
  refunded_cents: number;
  normalization_failures: number;
  /** 24 counts, by hour of the day (UTC). */
  voids_by_hour: number[];
  voids_by_reason: Record<VoidReason, number>;
  /** The employees who authorized voids, most voids first. */
  employees: { employee_id: string; voids: number }[];
  /** Voids at a shift change, as the configuration has them. */
  near_shift_change: number;
}

export const NO_VOIDS: VoidActivity = {
  sales: 0,
  sales_cents: 0,
  voids: 0,
  voided_cents: 0,
  refunds: 0,
  refunded_cents: 0,
  normalization_failures: 0,
  voids_by_hour: new Array<number>(24).fill(0),
  voids_by_reason: Object.fromEntries(VOID_REASONS.map((reason) => [reason, 0])) as Record<VoidReason, number>,
  employees: [],
  near_shift_change: 0,
};

/** Several merchants' activity as one, for platform totals. Employee ids are each merchant's own, so none is named across merchants. */
export function addVoidActivities(activities: readonly VoidActivity[]): VoidActivity {
  const sum = (field: { [K in keyof VoidActivity]: VoidActivity[K] extends number ? K : never }[keyof VoidActivity]) =>
    activities.reduce((total, activity) => total + activity[field], 0);
  return {
    sales: sum('sales'),
    sales_cents: sum('sales_cents'),
    voids: sum('voids'),
    voided_cents: sum('voided_cents'),
    refunds: sum('refunds'),
    refunded_cents: sum('refunded_cents'),
    normalization_failures: sum('normalization_failures'),
    voids_by_hour: NO_VOIDS.voids_by_hour.map((_, hour) =>
      activities.reduce((total, activity) => total + activity.voids_by_hour[hour], 0),
    ),
    voids_by_reason: Object.fromEntries(
      VOID_REASONS.map((reason) => [
        reason,
        activities.reduce((total, activity) => total + activity.voids_by_reason[reason], 0),
      ]),
    ) as Record<VoidReason, number>,
    employees: [],
    near_shift_change: sum('near_shift_change'),
  };
}

/** Voids by reason code, every reason listed. */

/** Voids near a shift change against the share of the day the shift-change windows cover. */
export interface VoidShiftChange {
  hours: number[];
  window_minutes: number;
  voids: number;
  share: number | null;
  expected_share: number;
  z: number | null;
}

/** The employee who authorized the most voids. */
export interface TopVoidEmployee {
  employee_id: string;
  voids: number;
  share: number | null;
}

export interface VoidRates {
  sales: number;
  voids: number;
  void_rate: number | null;
  sales_cents: number;
  voided_cents: number;
  /** Voided cash over sales cash. */
  void_amount_rate: number | null;
  refunds: number;
  refunded_cents: number;
  normalization_failures: number;
  normalization_failure_rate: number | null;
  voids_by_hour: number[];
  voids_by_reason: Record<VoidReason, number>;
  shift_change: VoidShiftChange;
  top_employee: TopVoidEmployee | null;
}

export function voidRates(activity: VoidActivity, shift: ShiftChanges): VoidRates {
  const expectedShare = shiftWindowShare(shift);
  const { voids, near_shift_change: near } = activity;
  const z = zScore(near, voids * expectedShare, voids * expectedShare * (1 - expectedShare));
  const [top] = activity.employees;
  return {
    sales: activity.sales,
    voids,
    void_rate: ratio(voids, activity.sales),
    sales_cents: activity.sales_cents,
    voided_cents: activity.voided_cents,
    void_amount_rate: ratio(activity.voided_cents, activity.sales_cents),
    refunds: activity.refunds,
    refunded_cents: activity.refunded_cents,
    normalization_failures: activity.normalization_failures,
    normalization_failure_rate: ratio(activity.normalization_failures, activity.refunds),
    voids_by_hour: activity.voids_by_hour,
    voids_by_reason: activity.voids_by_reason,
    shift_change: {
      hours: [...shift.hours],
      window_minutes: shift.windowMinutes,
      voids: near,
      share: ratio(near, voids),
      expected_share: round(expectedShare, 4),
      z: z === null ? null : round(z, 2),
    },
    top_employee: top ? { ...top, share: ratio(top.voids, voids) } : null,
  };
}

export const VOID_SIGNAL_CODES = [
  'HIGH_VOID_RATE',
  'REPEATED_NORMALIZATION_FAILURES',
  'VOIDS_AT_SHIFT_CHANGE',
  'VOIDS_CONCENTRATED_ON_EMPLOYEE',
] as const satisfies readonly FraudSignalCode[];
export type VoidSignalCode = (typeof VOID_SIGNAL_CODES)[number];

/** The void-abuse signals: scored in the merchant's risk profile, listed with their records by GET /analytics/void-abuse. */
export function voidSignals(rates: VoidRates): (FraudSignal & { code: VoidSignalCode })[] {
  const { shift_change: shift, top_employee: top } = rates;
  return fired<VoidSignalCode>([
    rates.sales >= RATE_MIN_SALES
      ? signal(
          'HIGH_VOID_RATE',
          rates.void_rate!,
          `${rates.voids} of ${rates.sales} sales were voided (rate ${rates.void_rate})`,
        )
      : undefined,
    signal(
      'REPEATED_NORMALIZATION_FAILURES',
      rates.normalization_failures,
      `${rates.normalization_failures} of ${rates.refunds} refunds failed the normalization check: their rounding moved the same way as the sale's`,
    ),
    shift.voids >= SHIFT_CLUSTER_MIN_VOIDS && shift.z !== null
      ? signal(
          'VOIDS_AT_SHIFT_CHANGE',
          shift.z,
          `${shift.voids} of ${rates.voids} voids were within ${shift.window_minutes} minutes of a shift change (${shift.hours.join(', ')} UTC), which cover a share of ${shift.expected_share} of the day (z = ${shift.z.toFixed(2)})`,
        )
      : undefined,
    top && rates.voids >= CONCENTRATION_MIN_VOIDS
      ? signal(
          'VOIDS_CONCENTRATED_ON_EMPLOYEE',
          top.share!,
          `employee ${top.employee_id} authorized ${top.voids} of ${rates.voids} voids`,
        )
      : undefined,
  ]);
}
