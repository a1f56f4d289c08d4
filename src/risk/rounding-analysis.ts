/**
 * A merchant's cash rounding against what honest rounding would give: pure, from the per-merchant
 * counts of the merchant-risk read model. The formulas are in docs/fraud-scoring.md.
 */

import { roundCents, type RoundingMode } from '../rules/rounding-engine';
import { BIAS_MIN_SAMPLE } from '../rules/fraud-score';
import { fired, signal, type FraudSignal } from '../rules/fraud-signals';
import { chiSquareUniform, ratio, round, zScore } from '../rules/statistics';

export type Direction = 'up' | 'down' | 'none';

export const PENNY_ENDINGS = 10;
/** Five expected sales per ending: below that a chi-square against uniform is not trusted. */
const ENDINGS_MIN_SAMPLE = 50;
/** One sale an explicit mode favoured may be a test; a few are a habit. */
const EXPLICIT_GAINS_MIN_SALES = 3;

export function directionOf(deltaCents: number): Direction {
  return deltaCents > 0 ? 'up' : deltaCents < 0 ? 'down' : 'none';
}

/** Which way the mode moves a total ending in `ending` cents: every mode's adjustment depends on the last digit alone. */
export function ruleDirection(mode: RoundingMode, ending: number): Direction {
  return directionOf(roundCents(ending, mode) - ending);
}

/** The share of the ten penny endings a mode rounds up and down: an honest sale's odds when endings are uniform. */
export function roundingOdds(mode: RoundingMode): { up: number; down: number } {
  const directions = Array.from({ length: PENNY_ENDINGS }, (_, ending) => ruleDirection(mode, ending));
  const share = (direction: Direction) => directions.filter((d) => d === direction).length / PENNY_ENDINGS;
  return { up: share('up'), down: share('down') };
}

/** How many of the merchant's cash sales had a rule mode, a penny ending (of the cash before rounding) and a rounding direction. */
export interface RoundingCell {
  rule_mode: RoundingMode;
  ending: number;
  direction: Direction;
  sales: number;
}

export interface RoundingActivity {
  sales: number;
  /** Sales with a cash portion: the only ones rounded. */
  cash_sales: number;
  /** Σ rounding delta of the cash sales as calculated (overrides are in the override patterns). */
  net_rounding_cents: number;
  explicit_mode_sales: number;
  /** Cash sales where the explicit mode collected more than the rule's own mode would have, and by how much in all. */
  favoured_sales: number;
  favoured_cents: number;
  cells: RoundingCell[];
}

export const NO_ROUNDING: RoundingActivity = {
  sales: 0,
  cash_sales: 0,
  net_rounding_cents: 0,
  explicit_mode_sales: 0,
  favoured_sales: 0,
  favoured_cents: 0,
  cells: [],
};

export interface ExpectedRounding {
  rounded_up: number;
  rounded_down: number;
  up_ratio: number | null;
}

/** The same sales rounded by their rule's mode: with uniform penny endings, and with the endings they really had. */
export interface HonestRoundingExpectation {
  uniform_endings: ExpectedRounding;
  actual_endings: ExpectedRounding;
}

/** Round-ups against the uniform-endings expectation, over the directional roundings whose rule rounds both ways. */
export interface RoundUpBias {
  sample: number;
  rounded_up: number;
  expected_up: number;
  z: number | null;
}

export interface PennyEndings {
  counts: number[];
  chi_square: number;
  degrees_of_freedom: number;
  leans_to_round_up: boolean;
}

export interface ExplicitModeUse {
  sales: number;
  favoured_sales: number;
  favoured_cents: number;
}

export interface RoundingAnalysis {
  sales: number;
  cash_sales: number;
  rounded_up: number;
  rounded_down: number;
  unchanged: number;
  /** Shares of the directional roundings (up or down) that went each way. */
  up_ratio: number | null;
  down_ratio: number | null;
  net_rounding_cents: number;
  expected_under_honest_rounding: HonestRoundingExpectation;
  round_up_bias: RoundUpBias;
  penny_endings: PennyEndings;
  explicit_mode: ExplicitModeUse;
}

export function roundingAnalysis(activity: RoundingActivity): RoundingAnalysis {
  const counted = (keep: (cell: RoundingCell) => boolean, weight: (cell: RoundingCell) => number = () => 1) =>
    activity.cells.reduce((sum, cell) => (keep(cell) ? sum + cell.sales * weight(cell) : sum), 0);
  const all = () => true;
  const rounded = (direction: Direction) => counted((cell) => cell.direction === direction);
  const ups = rounded('up');
  const downs = rounded('down');

  const uniformUp = counted(all, (cell) => roundingOdds(cell.rule_mode).up);
  const uniformDown = counted(all, (cell) => roundingOdds(cell.rule_mode).down);
  const actualUp = counted((cell) => ruleDirection(cell.rule_mode, cell.ending) === 'up');
  const actualDown = counted((cell) => ruleDirection(cell.rule_mode, cell.ending) === 'down');

  // Each directional rounding is a coin that lands up with p = P(up) / P(up or down) under its rule and uniform endings.
  const pUp = (cell: RoundingCell) => {
    const odds = roundingOdds(cell.rule_mode);
    return odds.up / (odds.up + odds.down);
  };
  // A rule that never rounds has no odds (0/0): what an explicit mode did under it is EXPLICIT_MODE_GAINS's to judge.
  const inBias = (cell: RoundingCell) => cell.direction !== 'none' && !Number.isNaN(pUp(cell));
  const sample = counted(inBias);
  const biasUps = counted((cell) => inBias(cell) && cell.direction === 'up');
  const expectedUp = counted(inBias, pUp);
  const z = zScore(
    biasUps,
    expectedUp,
    counted(inBias, (cell) => pUp(cell) * (1 - pUp(cell))),
  );

  const counts = Array.from({ length: PENNY_ENDINGS }, (_, ending) => counted((cell) => cell.ending === ending));
  const expected = (up: number, down: number): ExpectedRounding => ({
    rounded_up: round(up, 2),
    rounded_down: round(down, 2),
    up_ratio: ratio(up, up + down),
  });

  return {
    sales: activity.sales,
    cash_sales: activity.cash_sales,
    rounded_up: ups,
    rounded_down: downs,
    unchanged: rounded('none'),
    up_ratio: ratio(ups, ups + downs),
    down_ratio: ratio(downs, ups + downs),
    net_rounding_cents: activity.net_rounding_cents,
    expected_under_honest_rounding: {
      uniform_endings: expected(uniformUp, uniformDown),
      actual_endings: expected(actualUp, actualDown),
    },
    round_up_bias: {
      sample,
      rounded_up: biasUps,
      expected_up: round(expectedUp, 2),
      z: z === null ? null : round(z, 2),
    },
    penny_endings: {
      counts,
      chi_square: round(chiSquareUniform(counts), 2),
      degrees_of_freedom: PENNY_ENDINGS - 1,
      leans_to_round_up: actualUp - actualDown > uniformUp - uniformDown,
    },
    explicit_mode: {
      sales: activity.explicit_mode_sales,
      favoured_sales: activity.favoured_sales,
      favoured_cents: activity.favoured_cents,
    },
  };
}

export function roundingSignals(analysis: RoundingAnalysis): FraudSignal[] {
  const { round_up_bias: bias, penny_endings: endings, explicit_mode: explicit } = analysis;
  return fired([
    bias.sample >= BIAS_MIN_SAMPLE && bias.z !== null
      ? signal(
          'ROUND_UP_BIAS',
          bias.z,
          `${bias.rounded_up} of ${bias.sample} directional cash roundings went up where honest rounding gives ${bias.expected_up} (z = ${bias.z.toFixed(2)})`,
        )
      : undefined,
    analysis.cash_sales >= ENDINGS_MIN_SAMPLE && endings.leans_to_round_up
      ? signal(
          'PENNY_ENDINGS_SKEWED',
          endings.chi_square,
          `the penny endings of ${analysis.cash_sales} cash sales lean to those the rule rounds up (chi-square ${endings.chi_square}, ${endings.degrees_of_freedom} degrees of freedom)`,
        )
      : undefined,
    explicit.favoured_sales >= EXPLICIT_GAINS_MIN_SALES
      ? signal(
          'EXPLICIT_MODE_GAINS',
          explicit.favoured_sales / analysis.cash_sales,
          `an explicit cash_rounding_mode collected more than the rule's mode on ${explicit.favoured_sales} of ${analysis.cash_sales} cash sales (${explicit.favoured_cents} cents in all)`,
        )
      : undefined,
  ]);
}
