/** The compliance findings of a sale and the status they give it. */

import type { FraudAssessment, RiskLevel } from '../rules/fraud-signals';
import { isStale, type JurisdictionResolution } from '../rules/jurisdiction-resolver';
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
}

/**
 * How sure the service is of the rule applied (docs/design.md, "Rule model, version 3"): the rounding
 * follows the rule either way, and the answer says what its evidence is worth.
 */
function evidenceReasons(rule: JurisdictionRule, date: string): ComplianceReason[] {
  const reasons: ComplianceReason[] = [];
  const law = rule.legislation ? ` (${rule.legislation})` : '';
  if (rule.confidence === 'low') {
    reasons.push({
      code: 'RULE_UNCONFIRMED',
      severity: 'WARN',
      message: `the rule of ${rule.jurisdiction_id}${law} rests on ${rule.source_kind} sources with low confidence: its enactment or content is not confirmed by official text`,
    });
  }
  if (isStale(rule, date)) {
    reasons.push({
      code: 'RULE_STALE',
      severity: 'WARN',
      message: `the rule of ${rule.jurisdiction_id}${law} was last checked against its sources on ${rule.last_verified}`,
    });
  }
  return reasons;
}

export function complianceReasons({
  explicit,
  contradicts,
  environment,
  rule,
  jurisdiction,
  fraud,
  date,
}: ComplianceFacts): ComplianceReason[] {
  const reasons: ComplianceReason[] = [
    ...jurisdiction.warnings.map(({ code, message }): ComplianceReason => ({ code, severity: 'WARN', message })),
    ...evidenceReasons(rule, date),
  ];
  const law = rule.legislation ? ` (${rule.legislation})` : '';
  if (contradicts) {
    reasons.push({
      code: 'EXPLICIT_MODE_CONTRADICTS_MANDATORY_RULE',
      // A sandbox key exists to try modes out; a production key applying one breaks the law it names.
      severity: environment === 'production' ? 'FAIL' : 'WARN',
      message: `cash_rounding_mode ${explicit} gives a cash total the mandatory ${rule.rounding_mode} rule of ${rule.jurisdiction_id}${law} does not accept`,
    });
  } else if (explicit !== undefined) {
    reasons.push({
      code: 'EXPLICIT_ROUNDING_MODE',
      severity: 'WARN',
      message: `cash_rounding_mode ${explicit} was sent (the rule of ${rule.jurisdiction_id} is ${rule.rounding_mode}); explicit modes are for testing only`,
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
