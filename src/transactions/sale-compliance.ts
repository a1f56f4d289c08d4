/** The compliance findings of a sale and the status they give it. */

import type { FraudAssessment, RiskLevel } from '../rules/fraud-signals';
import { staleness, type JurisdictionResolution } from '../rules/jurisdiction-resolver';
import type { JurisdictionRule } from '../rules/jurisdiction-rule';
import type { RoundingMode } from '../rules/rounding-engine';
import type { ComplianceReason, ComplianceStatus, KeyEnvironment } from './transaction.events';

/** docs/design.md: a borderline score needs review, a critical one fails the check. */
const RISK_SEVERITY: Partial<Record<RiskLevel, ComplianceReason['severity']>> = {
  MEDIUM: 'WARN',
  HIGH: 'WARN',
  CRITICAL: 'FAIL',
};

interface ComplianceFacts {
  explicit: RoundingMode | undefined;
  contradicts: boolean;
  environment: KeyEnvironment;
  rule: JurisdictionRule;
  jurisdiction: JurisdictionResolution;
  fraud: FraudAssessment;
  /** The sale's date: a rule is stale as of it. */
  date: string;
  /** What rounding added to the cash the customer pays (negative: rounded down). */
  roundingDeltaCents: number;
}

/** How a reason names the rule: a low-confidence record is no more than what was recorded. */
function ruleName(rule: JurisdictionRule): string {
  const law = rule.legislation ? ` (${rule.legislation})` : '';
  const unconfirmed = rule.confidence === 'low' ? ', as recorded, unconfirmed,' : '';
  return `the ${rule.enforcement} ${rule.rounding_mode} rule of ${rule.jurisdiction_id}${law}${unconfirmed}`;
}

/**
 * How sure the service is of the rule applied (docs/design.md, "Rule model, version 3"): the rounding
 * follows the rule either way, and the answer says what its evidence is worth.
 */
function evidenceReasons(rule: JurisdictionRule, date: string): ComplianceReason[] {
  const reasons: ComplianceReason[] = [];
  if (rule.confidence === 'low') {
    reasons.push({
      code: 'RULE_UNCONFIRMED',
      severity: 'WARN',
      message: `${ruleName(rule)} rests on ${rule.source_kind} sources with low confidence: its enactment or content is not confirmed by official text`,
    });
  }
  const stale = staleness(rule, date);
  if (stale !== null) {
    reasons.push({ code: 'RULE_STALE', severity: 'WARN', message: `${ruleName(rule)} may be out of date: ${stale}` });
  }
  return reasons;
}

/**
 * Rounding a cash total up charges the cash payer more than a card payer; where a law of the place
 * in force on the sale's date bars that (its record says `cash_surcharge_barred`), the sale is WARN.
 */
function surchargeReasons(jurisdiction: JurisdictionResolution, roundingDeltaCents: number): ComplianceReason[] {
  if (roundingDeltaCents <= 0) return [];
  const places = jurisdiction.hierarchy
    .filter(
      ({ rule, not_applied_reason: reason }) =>
        rule.cash_surcharge_barred === true && reason !== 'not_yet_in_force' && reason !== 'expired',
    )
    // Named by place, not by `legislation`: a state record's legislation is its rounding bill, not the cash law.
    .map(({ rule }) => rule.jurisdiction_id);
  if (places.length === 0) return [];
  return [
    {
      code: 'CASH_SURCHARGE_BARRED',
      severity: 'WARN',
      message: `cash was rounded up by ${roundingDeltaCents} cents where a law bars charging cash payers more than others (the records of ${places.join(', ')} say cash_surcharge_barred; their notes cite the law); a favor_customer rounding policy rounds down instead`,
    },
  ];
}

export function complianceReasons({
  explicit,
  contradicts,
  environment,
  rule,
  jurisdiction,
  fraud,
  date,
  roundingDeltaCents,
}: ComplianceFacts): ComplianceReason[] {
  const reasons: ComplianceReason[] = [
    ...jurisdiction.warnings.map(({ code, message }): ComplianceReason => ({ code, severity: 'WARN', message })),
    ...evidenceReasons(rule, date),
    ...surchargeReasons(jurisdiction, roundingDeltaCents),
  ];
  if (contradicts) {
    reasons.push({
      code: 'EXPLICIT_MODE_CONTRADICTS_MANDATORY_RULE',
      // A sandbox key exists to try modes out; a production key applying one breaks the law it names.
      severity: environment === 'production' ? 'FAIL' : 'WARN',
      message: `cash_rounding_mode ${explicit} gives a cash total ${ruleName(rule)} does not accept`,
    });
  } else if (explicit !== undefined) {
    reasons.push({
      code: 'EXPLICIT_ROUNDING_MODE',
      severity: 'WARN',
      message: `cash_rounding_mode ${explicit} was sent instead of ${ruleName(rule)}; explicit modes are for testing only`,
    });
  }
  const severity = RISK_SEVERITY[fraud.risk_level];
  if (severity) {
    reasons.push({
      code: `FRAUD_RISK_${fraud.risk_level}`,
      severity,
      message: `fraud score ${fraud.fraud_score} is ${fraud.risk_level}: ${fraud.signals.map((signal) => signal.code).join(', ')}`,
    });
  }
  return reasons;
}

export function statusOf(reasons: readonly ComplianceReason[]): ComplianceStatus {
  if (reasons.some((reason) => reason.severity === 'FAIL')) return 'FAIL';
  return reasons.length > 0 ? 'WARN' : 'PASS';
}
