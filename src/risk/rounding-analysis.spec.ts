import fc from 'fast-check';
import { roundCents, ROUNDING_MODES, type RoundingMode } from '../rules/rounding-engine';
import {
  directionOf,
  NO_ROUNDING,
  roundingAnalysis,
  roundingOdds,
  roundingSignals,
  ruleDirection,
  type RoundingActivity,
} from './rounding-analysis';

interface Sale {
  cash: number;
  rule: RoundingMode;
  /** An explicit mode; the rule's otherwise. */
  applied?: RoundingMode;
}

/** The counts the merchant-risk projector keeps, for these cash sales. */
function activityOf(sales: Sale[]): RoundingActivity {
  const activity: RoundingActivity = { ...NO_ROUNDING, cells: [] };
  for (const { cash, rule, applied = rule } of sales) {
    const delta = roundCents(cash, applied) - cash;
    const gain = delta - (roundCents(cash, rule) - cash);
    activity.sales += 1;
    activity.cash_sales += 1;
    activity.net_rounding_cents += delta;
    activity.explicit_mode_sales += Number(applied !== rule);
    activity.favoured_sales += Number(gain > 0);
    activity.favoured_cents += Math.max(gain, 0);
    const cell = { rule_mode: rule, ending: cash % 10, direction: directionOf(delta) };
    const same = activity.cells.find(
      (c) => c.rule_mode === cell.rule_mode && c.ending === cell.ending && c.direction === cell.direction,
    );
    if (same) same.sales += 1;
    else activity.cells.push({ ...cell, sales: 1 });
  }
  return activity;
}

/** `perEnding` sales at each of these penny endings (amounts 10.00 to 10.09). */
const salesEnding = (endings: number[], perEnding: number, rule: RoundingMode, applied?: RoundingMode): Sale[] =>
  endings.flatMap((ending) => Array.from({ length: perEnding }, () => ({ cash: 1000 + ending, rule, applied })));
const ALL_ENDINGS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
const codes = (activity: RoundingActivity) =>
  roundingSignals(roundingAnalysis(activity)).map((s) => [s.code, s.points]);

describe('rounding odds', () => {
  it.each([
    ['swedish_rounding', 0.4, 0.4],
    ['symmetrical_rounding', 0.4, 0.4],
    ['nearest_nickel', 0.4, 0.4],
    ['mandatory_round_up', 0.8, 0],
    ['mandatory_round_down', 0, 0.8],
    ['nearest_dime', 0.4, 0.5],
    ['nearest_cent', 0, 0],
    ['none', 0, 0],
  ] as const)('%s rounds up %p and down %p of uniform endings', (mode, up, down) => {
    expect(roundingOdds(mode)).toEqual({ up, down });
  });

  it('takes the direction of any amount from its last digit', () => {
    fc.assert(
      fc.property(fc.nat(10_000_000), fc.constantFrom(...ROUNDING_MODES), (cents, mode) => {
        expect(ruleDirection(mode, cents % 10)).toBe(directionOf(roundCents(cents, mode) - cents));
      }),
    );
  });
});

describe('rounding analysis', () => {
  it('finds nothing in honest rounding of uniform endings', () => {
    const analysis = roundingAnalysis(activityOf(salesEnding(ALL_ENDINGS, 6, 'swedish_rounding')));
    expect(analysis).toMatchObject({
      cash_sales: 60,
      rounded_up: 24,
      rounded_down: 24,
      unchanged: 12,
      up_ratio: 0.5,
      net_rounding_cents: 0,
      expected_under_honest_rounding: {
        uniform_endings: { rounded_up: 24, rounded_down: 24, up_ratio: 0.5 },
        actual_endings: { rounded_up: 24, rounded_down: 24, up_ratio: 0.5 },
      },
      round_up_bias: { sample: 48, rounded_up: 24, expected_up: 24, z: 0 },
      penny_endings: { counts: Array(10).fill(6), chi_square: 0, degrees_of_freedom: 9, leans_to_round_up: false },
    });
    expect(codes(activityOf(salesEnding(ALL_ENDINGS, 6, 'swedish_rounding')))).toEqual([]);
  });

  it('sees amounts chosen to round up: every rounding up where uniform endings give half, and the endings skewed', () => {
    const activity = activityOf(salesEnding([3, 4, 8, 9], 15, 'swedish_rounding'));
    const analysis = roundingAnalysis(activity);
    expect(analysis).toMatchObject({
      rounded_up: 60,
      rounded_down: 0,
      up_ratio: 1,
      net_rounding_cents: 90,
      expected_under_honest_rounding: {
        uniform_endings: { rounded_up: 24, rounded_down: 24, up_ratio: 0.5 },
        // The rule did round these amounts honestly: the skew is in the amounts.
        actual_endings: { rounded_up: 60, rounded_down: 0, up_ratio: 1 },
      },
      // (60 − 30) / √15
      round_up_bias: { sample: 60, expected_up: 30, z: 7.75 },
      // Four endings of 15 against 6 each: 4 × 81/6 + 6 × 36/6
      penny_endings: { counts: [0, 0, 0, 15, 15, 0, 0, 0, 15, 15], chi_square: 90, leans_to_round_up: true },
    });
    expect(codes(activity)).toEqual([
      ['ROUND_UP_BIAS', 40],
      ['PENNY_ENDINGS_SKEWED', 20],
    ]);
  });

  it('sees an explicit mode rounding up what the rule rounds down', () => {
    const activity = activityOf(salesEnding(ALL_ENDINGS, 3, 'swedish_rounding', 'mandatory_round_up'));
    const analysis = roundingAnalysis(activity);
    expect(analysis).toMatchObject({
      rounded_up: 24,
      rounded_down: 0,
      expected_under_honest_rounding: { actual_endings: { rounded_up: 12, rounded_down: 12 } },
      // Endings 1, 2, 6, 7: 1 or 2 cents down under the rule, 4 or 3 up instead.
      explicit_mode: { sales: 30, favoured_sales: 12, favoured_cents: 60 },
      penny_endings: { chi_square: 0 },
    });
    // (24 − 12) / √6; 12 of 30 sales favoured.
    expect(codes(activity)).toEqual([
      ['ROUND_UP_BIAS', 40],
      ['EXPLICIT_MODE_GAINS', 30],
    ]);
  });

  it('does not hold skewed endings against a merchant when they do not lean to round-ups', () => {
    const wholeDollars = activityOf(salesEnding([0], 60, 'swedish_rounding'));
    expect(roundingAnalysis(wholeDollars).penny_endings).toMatchObject({ chi_square: 540, leans_to_round_up: false });
    expect(codes(wholeDollars)).toEqual([]);
  });

  it('measures no bias where the law sets the direction', () => {
    const analysis = roundingAnalysis(activityOf(salesEnding([1, 2, 3, 4, 6, 7, 8, 9], 5, 'mandatory_round_up')));
    expect(analysis).toMatchObject({ rounded_up: 40, up_ratio: 1, round_up_bias: { sample: 40, z: null } });
    expect(analysis.expected_under_honest_rounding.uniform_endings).toEqual({
      rounded_up: 32,
      rounded_down: 0,
      up_ratio: 1,
    });
  });

  it('measures a symmetric rule as the per-sale score does: (2·ups − n)/√n over the directional roundings', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 1_000_000 }), { minLength: 1, maxLength: 200 }), (amounts) => {
        const analysis = roundingAnalysis(activityOf(amounts.map((cash) => ({ cash, rule: 'nearest_nickel' }))));
        const { sample: n, rounded_up: ups, z } = analysis.round_up_bias;
        expect(n).toBe(analysis.rounded_up + analysis.rounded_down);
        if (n > 0) expect(z).toBeCloseTo((2 * ups - n) / Math.sqrt(n), 2);
        // Honest rounding under the rule: what happened is what the endings predict.
        expect(analysis.expected_under_honest_rounding.actual_endings).toMatchObject({
          rounded_up: analysis.rounded_up,
          rounded_down: analysis.rounded_down,
        });
      }),
    );
  });
});
