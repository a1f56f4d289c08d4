import fc from 'fast-check';
import {
  addVoidActivities,
  isNearShiftChange,
  NO_VOIDS,
  shiftWindowShare,
  voidRates,
  voidSignals,
  type VoidActivity,
} from './void-analysis';
import type { ShiftChanges } from '../platform/config/config';

const SHIFTS: ShiftChanges = { hours: [6, 14, 22], windowMinutes: 30 };
const at = (hours: number, minutes = 0, seconds = 0) => hours * 3600 + minutes * 60 + seconds;
const codes = (activity: Partial<VoidActivity>) =>
  voidSignals(voidRates({ ...NO_VOIDS, ...activity }, SHIFTS)).map((s) => [s.code, s.points]);

describe('shift changes', () => {
  it.each([
    [at(14), true],
    [at(13, 30), true],
    [at(14, 30), true],
    [at(14, 30, 1), false],
    [at(13, 29, 59), false],
    [at(10), false],
  ])('counts second %i of the day as at a shift change: %p', (second, near) => {
    expect(isNearShiftChange(second, SHIFTS)).toBe(near);
  });

  it('wraps round midnight', () => {
    const midnight: ShiftChanges = { hours: [0], windowMinutes: 30 };
    expect(isNearShiftChange(at(23, 45), midnight)).toBe(true);
    expect(isNearShiftChange(at(0, 20), midnight)).toBe(true);
    expect(isNearShiftChange(at(23, 15), midnight)).toBe(false);
  });

  it('covers an hour of the day per shift change with 30 minutes either side, less where windows meet', () => {
    expect(shiftWindowShare(SHIFTS)).toBe(3 / 24);
    expect(shiftWindowShare({ hours: [6, 7], windowMinutes: 60 })).toBe(3 / 24);
    expect(shiftWindowShare({ hours: [0, 8, 16], windowMinutes: 180 })).toBe(0.75);
  });

  it('covers exactly the time isNearShiftChange counts', () => {
    const shift = fc.record({
      hours: fc.uniqueArray(fc.integer({ min: 0, max: 23 }), { minLength: 1, maxLength: 6 }),
      windowMinutes: fc.integer({ min: 1, max: 180 }),
    });
    fc.assert(
      fc.property(shift, (s) => {
        // Windows start and end on whole minutes: a minute is in one when its middle is.
        let near = 0;
        for (let minute = 0; minute < 1440; minute++) if (isNearShiftChange(minute * 60 + 30, s)) near++;
        expect(shiftWindowShare(s)).toBeCloseTo(near / 1440, 9);
      }),
    );
  });
});

describe('void rates and signals', () => {
  it('rates voids, amounts and normalization failures, and names the busiest employee', () => {
    const rates = voidRates(
      {
        ...NO_VOIDS,
        sales: 40,
        sales_cents: 40_000,
        voids: 4,
        voided_cents: 4000,
        refunds: 4,
        refunded_cents: 900,
        normalization_failures: 1,
        employees: [
          { employee_id: 'e-1', voids: 3 },
          { employee_id: 'e-2', voids: 1 },
        ],
        near_shift_change: 1,
      },
      SHIFTS,
    );
    expect(rates).toMatchObject({
      void_rate: 0.1,
      void_amount_rate: 0.1,
      normalization_failure_rate: 0.25,
      shift_change: { hours: [6, 14, 22], window_minutes: 30, voids: 1, share: 0.25, expected_share: 0.125 },
      top_employee: { employee_id: 'e-1', voids: 3, share: 0.75 },
    });
  });

  it('adds merchants up for platform totals, naming no employee across them', () => {
    const one = {
      ...NO_VOIDS,
      sales: 10,
      voids: 1,
      voids_by_hour: NO_VOIDS.voids_by_hour.map((_, h) => Number(h === 9)),
      employees: [{ employee_id: 'e-1', voids: 1 }],
    };
    const two = {
      ...NO_VOIDS,
      sales: 30,
      voids: 3,
      near_shift_change: 2,
      voids_by_reason: { ...NO_VOIDS.voids_by_reason, fraud_suspected: 3 },
    };
    expect(addVoidActivities([one, two])).toEqual({
      ...NO_VOIDS,
      sales: 40,
      voids: 4,
      near_shift_change: 2,
      voids_by_hour: one.voids_by_hour,
      voids_by_reason: two.voids_by_reason,
      employees: [],
    });
    expect(addVoidActivities([])).toEqual(NO_VOIDS);
  });

  it('says nothing of a quiet merchant', () => {
    expect(voidRates(NO_VOIDS, SHIFTS)).toMatchObject({
      void_rate: null,
      normalization_failure_rate: null,
      top_employee: null,
      shift_change: { z: null },
    });
    expect(codes({})).toEqual([]);
  });

  it.each([
    [{ sales: 19, voids: 10 }, []],
    [{ sales: 100, voids: 4 }, []],
    [{ sales: 100, voids: 5 }, [['HIGH_VOID_RATE', 10]]],
    [{ sales: 100, voids: 15 }, [['HIGH_VOID_RATE', 20]]],
  ])('flags the void rate of %j once there are 20 sales: %j', (activity, expected) => {
    expect(codes(activity)).toEqual(expected);
  });

  it.each([
    [1, []],
    [2, [['REPEATED_NORMALIZATION_FAILURES', 10]]],
    [5, [['REPEATED_NORMALIZATION_FAILURES', 20]]],
  ])('flags %i normalization failures: %j', (failures, expected) => {
    expect(codes({ refunds: 6, normalization_failures: failures })).toEqual(expected);
  });

  it.each([
    // 2 of 2 at a shift change: too few to call a cluster.
    [2, 2, []],
    // 3 of 3: z = (3 − 0.375) / √0.328 = 4.58.
    [3, 3, [['VOIDS_AT_SHIFT_CHANGE', 15]]],
    // 3 of 24, what a spread-out day shows: z = 0.
    [24, 3, []],
  ])('of %i voids with %i at a shift change: %j', (voids, near, expected) => {
    expect(codes({ voids, near_shift_change: near })).toEqual(expected);
  });

  it.each([
    [4, 4, []],
    [5, 3, [['VOIDS_CONCENTRATED_ON_EMPLOYEE', 10]]],
    [5, 2, []],
  ])('of %i voids, %i by one employee: %j', (voids, top, expected) => {
    expect(codes({ voids, employees: [{ employee_id: 'e-1', voids: top }] })).toEqual(expected);
  });
});
