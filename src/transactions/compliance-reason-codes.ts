/**
 * Every code a transaction's `compliance.reasons` may carry, with its meaning: the one list the
 * OpenAPI document and docs/compliance-reasons.md are held to (a test compares them).
 */

import type { ResolutionWarningCode } from '../rules/jurisdiction-resolver';

export const COMPLIANCE_REASON_CODES = {
  STATE_ZIP_MISMATCH: 'The `state` sent disagrees with the ZIP code’s state; the ZIP’s rule was applied',
  UNKNOWN_ZIP_FALLBACK: 'The ZIP code is well-formed but not in the ZIP data; the federal default was applied',
  NO_LOCATION_FALLBACK: 'No `zip_code` or `state` was sent; the federal default was applied',
  UNKNOWN_COUNTY: 'The `county` sent is not in the ZIP data for the state; the state’s rule was applied',
  CITY_WITHOUT_COUNTY: 'A `city` was sent without a `county` and was ignored',
  RULE_UNCONFIRMED:
    'The rule applied has `confidence: low`: its enactment or content rests on news or a vendor’s list, not on official text. The rounding follows it; confirm it before relying on it',
  RULE_STALE:
    'The rule applied was not checked against its sources in the 90 days before the sale, or is a pending or proposed bill whose session has ended (or has no recorded end), however recently it was searched: the law may have changed since',
  CASH_SURCHARGE_BARRED:
    'Cash was rounded up where a law of the place in force on the sale’s date bars charging cash payers more than others (a cash-acceptance law; the rule record’s `cash_surcharge_barred`). The rounding stands; a `favor_customer` rounding policy avoids it where the law allows rounding down',
  EXPLICIT_ROUNDING_MODE: 'A `cash_rounding_mode` was sent (for testing) and rounded the sale instead of the rule',
  EXPLICIT_MODE_CONTRADICTS_MANDATORY_RULE:
    'A `cash_rounding_mode` was sent whose result a mandatory rule does not accept: `FAIL` under a production key, `WARN` under a sandbox key',
  FRAUD_RISK_MEDIUM: 'The fraud score is MEDIUM (25 to 49): review the sale',
  FRAUD_RISK_HIGH: 'The fraud score is HIGH (50 to 74): review the sale',
  FRAUD_RISK_CRITICAL: 'The fraud score is CRITICAL (75 to 100): the sale fails the check',
  REFUND_NORMALIZATION_FAILED:
    'A refund’s rounding moved the same way as its sale’s: rounding did not give back what it took (never blocks the refund)',
} as const satisfies Record<ResolutionWarningCode, string> & Record<string, string>;

export type ComplianceReasonCode = keyof typeof COMPLIANCE_REASON_CODES;
