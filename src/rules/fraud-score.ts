/**
 * The fraud score of one sale: pure and deterministic, so the same sale against the same history
 * always scores the same. Its signals and weights are rows of the shared table in fraud-signals.ts,
 * documented in docs/fraud-scoring.md.
 */

import { assess, signal, type FraudAssessment, type FraudSignal } from './fraud-signals';
import { zScore } from './statistics';

/** How many of the merchant's latest directional roundings (this sale included) the bias is measured over. */
export const BIAS_WINDOW = 50;
/** Below this many directional roundings a run of round-ups is still plausible chance. */
export const BIAS_MIN_SAMPLE = 20;
export const VELOCITY_WINDOW_MS = 5 * 60_000;

/** Form 8300 is due for cash over $10,000 (31 CFR 1010.330); sales just below it are the classic structuring pattern. */
const REPORTING_THRESHOLD_CENTS = 1_000_000;
const STRUCTURING_BAND_CENTS = 100_000;

/** What the scorer needs to know about the sale being recorded. */
export interface ScoredSale {
  /** Unrounded amount paid in cash; 0 for a sale without cash. */
  cash_portion_cents: number;
  /** Rounded cash minus cash portion. */
  rounding_delta_cents: number;
  /** Whether the applied mode rounds to the nearest 5 cents either way, so that up and down are equally likely by chance. */
  symmetric_mode: boolean;
  /** An explicit `cash_rounding_mode` that rounds differently from the mandatory rule in force. */
  contradicts_mandatory_rule: boolean;
  /** Cash collected under the explicit mode minus cash the rule's own mode would have collected (0 without an explicit mode). */
  explicit_mode_gain_cents: number;
  zip_state_mismatch: boolean;
  /** The rule came from the federal fallback because the location was missing or unknown. */
  unverified_jurisdiction: boolean;
}

/** The merchant's recent activity, read from the transaction list before this sale is recorded. */
export interface MerchantHistory {
  /**
   * Deltas of the merchant's latest cash sales rounded under a symmetric mode with a non-zero delta,
   * newest first, at most BIAS_WINDOW of them.
   */
  recent_symmetric_deltas: readonly number[];
  /** Sales by the same cashier in the VELOCITY_WINDOW_MS before this one; null when the sale names no cashier. */
  cashier_sales_in_window: number | null;
}

/** Upward bias among directional roundings, as a z-score against a fair coin: (ups − n/2) / (√n / 2). */
function roundUpBias(sale: ScoredSale, history: MerchantHistory): FraudSignal | undefined {
  const current = sale.symmetric_mode && sale.rounding_delta_cents !== 0 ? [sale.rounding_delta_cents] : [];
  const sample = [...current, ...history.recent_symmetric_deltas].slice(0, BIAS_WINDOW);
  if (sample.length < BIAS_MIN_SAMPLE) return undefined;
  const ups = sample.filter((delta) => delta > 0).length;
  const z = zScore(ups, sample.length / 2, sample.length / 4)!;
  return signal(
    'ROUND_UP_BIAS',
    z,
    `${ups} of the merchant's last ${sample.length} directional cash roundings went up (z = ${z.toFixed(2)})`,
  );
}

function cashierVelocity(history: MerchantHistory): FraudSignal | undefined {
  if (history.cashier_sales_in_window === null) return undefined;
  const sales = history.cashier_sales_in_window + 1;
  return signal(
    'CASHIER_VELOCITY',
    sales,
    `the cashier rang up ${sales} sales within ${VELOCITY_WINDOW_MS / 60_000} minutes`,
  );
}

export function scoreFraud(sale: ScoredSale, history: MerchantHistory): FraudAssessment {
  const structuring =
    sale.cash_portion_cents > REPORTING_THRESHOLD_CENTS - STRUCTURING_BAND_CENTS &&
    sale.cash_portion_cents <= REPORTING_THRESHOLD_CENTS;
  return assess([
    signal(
      'EXPLICIT_MODE_CONTRADICTS_MANDATORY_RULE',
      sale.contradicts_mandatory_rule,
      'an explicit cash_rounding_mode replaced the mandatory rule of the jurisdiction',
    ),
    signal(
      'EXPLICIT_MODE_FAVOURS_MERCHANT',
      sale.explicit_mode_gain_cents > 0,
      `the explicit mode collected ${sale.explicit_mode_gain_cents} cents more cash than the rule's mode would have`,
    ),
    signal('ZIP_STATE_MISMATCH', sale.zip_state_mismatch, 'the state sent disagrees with the ZIP code'),
    // A sale that rounding did not change is not held against the merchant.
    signal(
      'UNVERIFIED_JURISDICTION',
      sale.unverified_jurisdiction && sale.rounding_delta_cents !== 0,
      'cash was rounded under the federal fallback because the location was missing or unknown',
    ),
    roundUpBias(sale, history),
    cashierVelocity(history),
    signal(
      'CASH_JUST_BELOW_REPORTING_THRESHOLD',
      structuring,
      'the cash portion is just at or below the $10,000 cash reporting threshold',
    ),
  ]);
}
