/**
 * The one table of fraud signals and their weights, shared by the score of a sale (fraud-score.ts)
 * and the score of a merchant (merchant-score.ts), so both speak one vocabulary: a score is the sum
 * of the points of the signals that fired, capped at 100. docs/fraud-scoring.md documents every row
 * (a test holds the two together).
 */

export const RISK_LEVELS = ['NONE', 'LOW', 'MEDIUM', 'HIGH', 'CRITICAL'] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];

export const MAX_FRAUD_SCORE = 100;

/** Chi-square with 9 degrees of freedom (ten penny endings): the values a uniform spread exceeds with probability 1% and 0.1%. */
const CHI_SQUARE_9DF_P01 = 21.666;
const CHI_SQUARE_9DF_P001 = 27.877;

/** Below this many sales a merchant's override or void rate is noise, and scores nothing. */
export const RATE_MIN_SALES = 20;

/** `[at least, points]`: a signal scores the points of the highest tier its measure reaches. */
type Tiers = readonly (readonly [number, number])[];

/** Each signal's measure is named beside it; a yes/no signal measures 1 when it holds. */
export const FRAUD_SIGNALS = {
  // Scored on a sale.
  EXPLICIT_MODE_CONTRADICTS_MANDATORY_RULE: [[1, 35]],
  EXPLICIT_MODE_FAVOURS_MERCHANT: [[1, 15]],
  ZIP_STATE_MISMATCH: [[1, 20]],
  UNVERIFIED_JURISDICTION: [[1, 10]],
  /** Sales by one cashier within 5 minutes. */
  CASHIER_VELOCITY: [
    [15, 10],
    [30, 20],
  ],
  CASH_JUST_BELOW_REPORTING_THRESHOLD: [[1, 15]],
  // Scored on a sale (its merchant's latest roundings) and on a merchant (all its cash sales): the z-score of round-ups.
  ROUND_UP_BIAS: [
    [2, 10],
    [3, 25],
    [4, 40],
  ],
  // Scored on a merchant.
  /** Chi-square of the penny endings against uniform, when they lean to endings the rule rounds up. */
  PENNY_ENDINGS_SKEWED: [
    [CHI_SQUARE_9DF_P01, 10],
    [CHI_SQUARE_9DF_P001, 20],
  ],
  /** Share of cash sales where an explicit mode collected more than the rule's mode would have. */
  EXPLICIT_MODE_GAINS: [
    [0.05, 15],
    [0.25, 30],
  ],
  /** Overrides per sale. */
  OVERRIDE_FREQUENCY: [
    [0.05, 10],
    [0.15, 20],
  ],
  OVERRIDES_RAISE_CASH: [[1, 15]],
  /** Voids per sale. */
  HIGH_VOID_RATE: [
    [0.05, 10],
    [0.15, 20],
  ],
  /** Refunds that failed the normalization check. */
  REPEATED_NORMALIZATION_FAILURES: [
    [2, 10],
    [5, 20],
  ],
  /** z-score of the voids near a shift change against the share of the day those windows cover. */
  VOIDS_AT_SHIFT_CHANGE: [[3, 15]],
  /** One employee's share of the merchant's voids. */
  VOIDS_CONCENTRATED_ON_EMPLOYEE: [[0.6, 10]],
} as const satisfies Record<string, Tiers>;

export type FraudSignalCode = keyof typeof FRAUD_SIGNALS;
export const FRAUD_SIGNAL_CODES = Object.keys(FRAUD_SIGNALS) as FraudSignalCode[];

/** A signal that fired: which, what it adds to the score, and what was measured. */
export interface FraudSignal {
  code: FraudSignalCode;
  points: number;
  detail: string;
}

export interface FraudAssessment {
  /** The points of the signals that fired, added up and capped at MAX_FRAUD_SCORE. */
  fraud_score: number;
  risk_level: RiskLevel;
  /** In the order they are checked. */
  signals: FraudSignal[];
}

export function riskLevelOf(score: number): RiskLevel {
  if (score <= 0) return 'NONE';
  if (score < 25) return 'LOW';
  if (score < 50) return 'MEDIUM';
  if (score < 75) return 'HIGH';
  return 'CRITICAL';
}

/** The signal at the points of the highest tier its measure reaches; undefined below the first tier. */
export function signal(code: FraudSignalCode, measure: number | boolean, detail: string): FraudSignal | undefined {
  const tiers: Tiers = FRAUD_SIGNALS[code];
  const reached = tiers.filter(([atLeast]) => Number(measure) >= atLeast);
  return reached.length === 0 ? undefined : { code, points: reached[reached.length - 1][1], detail };
}

/** The signals that fired, in order. */
export function fired<C extends FraudSignalCode = FraudSignalCode>(
  signals: readonly (FraudSignal | undefined)[],
): (FraudSignal & { code: C })[] {
  return signals.filter((s): s is FraudSignal & { code: C } => s !== undefined);
}

/** The score of the signals that fired: their points added up, capped at 100. */
export function assess(signals: readonly (FraudSignal | undefined)[]): FraudAssessment {
  const scored = fired(signals);
  const fraudScore = Math.min(
    MAX_FRAUD_SCORE,
    scored.reduce((sum, s) => sum + s.points, 0),
  );
  return { fraud_score: fraudScore, risk_level: riskLevelOf(fraudScore), signals: scored };
}
