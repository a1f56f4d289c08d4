import { riskProfile } from './merchant-score';
import { NO_OVERRIDES, overridePatterns, overrideSignals, type OverrideActivity } from './override-analysis';
import { NO_ROUNDING, type RoundingActivity } from './rounding-analysis';
import { NO_VOIDS } from './void-analysis';

const SHIFTS = { hours: [6, 14, 22], windowMinutes: 30 };
const overrides = (activity: Partial<OverrideActivity>): OverrideActivity => ({ ...NO_OVERRIDES, ...activity });
const overrideCodes = (activity: Partial<OverrideActivity>, sales: number) =>
  overrideSignals(overridePatterns(overrides(activity), sales), sales).map((s) => [s.code, s.points]);

describe('override patterns', () => {
  it('rates overrides per sale and averages their delta to the cent', () => {
    const patterns = overridePatterns(
      overrides({
        overrides: 3,
        raised: 2,
        lowered: 1,
        total_delta_cents: 8,
        by_reason: { ...NO_OVERRIDES.by_reason, 'pricing-error': 3 },
      }),
      60,
    );
    expect(patterns).toMatchObject({
      overrides: 3,
      frequency: 0.05,
      total_delta_cents: 8,
      average_delta_cents: 3,
      by_reason: { 'pricing-error': 3 },
    });
    expect(overridePatterns(overrides({ overrides: 2, total_delta_cents: -5 }), 0)).toMatchObject({
      frequency: null,
      average_delta_cents: -3,
    });
    expect(overridePatterns(NO_OVERRIDES, 10).average_delta_cents).toBeNull();
  });

  it.each([
    [{ overrides: 10 }, 19, []],
    [{ overrides: 0 }, 100, []],
    [{ overrides: 5 }, 100, [['OVERRIDE_FREQUENCY', 10]]],
    [{ overrides: 15 }, 100, [['OVERRIDE_FREQUENCY', 20]]],
    [{ overrides: 3, raised: 3 }, 100, [['OVERRIDES_RAISE_CASH', 15]]],
    [{ overrides: 6, raised: 3, lowered: 3 }, 100, [['OVERRIDE_FREQUENCY', 10]]],
  ])('flags %j on %i sales: %j', (activity, sales, expected) => {
    expect(overrideCodes(activity, sales)).toEqual(expected);
  });
});

describe('merchant risk profile', () => {
  it('is NONE for a merchant without activity', () => {
    const profile = riskProfile('m-1', { rounding: NO_ROUNDING, overrides: NO_OVERRIDES, voids: NO_VOIDS }, SHIFTS);
    expect(profile).toMatchObject({ merchant_id: 'm-1', fraud_score: 0, risk_level: 'NONE', signals: [] });
  });

  it('adds up rounding, override and void signals, capped at 100', () => {
    const rounding: RoundingActivity = {
      ...NO_ROUNDING,
      sales: 60,
      cash_sales: 60,
      cells: [3, 4, 8, 9].map((ending) => ({ rule_mode: 'swedish_rounding', ending, direction: 'up', sales: 15 })),
    };
    const profile = riskProfile(
      'm-skim',
      {
        rounding,
        overrides: overrides({ overrides: 12, raised: 12, total_delta_cents: 60 }),
        voids: { ...NO_VOIDS, sales: 60, voids: 10, near_shift_change: 10 },
      },
      SHIFTS,
    );
    expect(profile.signals.map((s) => [s.code, s.points])).toEqual([
      ['ROUND_UP_BIAS', 40],
      ['PENNY_ENDINGS_SKEWED', 20],
      ['OVERRIDE_FREQUENCY', 20],
      ['OVERRIDES_RAISE_CASH', 15],
      ['HIGH_VOID_RATE', 20],
      ['VOIDS_AT_SHIFT_CHANGE', 15],
    ]);
    expect(profile).toMatchObject({
      fraud_score: 100,
      risk_level: 'CRITICAL',
      override_patterns: { frequency: 0.2 },
      void_rates: { void_rate: 0.1667 },
    });
  });
});
