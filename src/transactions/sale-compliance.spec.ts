import type { FraudAssessment } from '../rules/fraud-signals';
import type { JurisdictionRule } from '../rules/jurisdiction-rule';
import type { JurisdictionResolution } from '../rules/jurisdiction-resolver';
import { ruleAt } from '../../test/support/jurisdiction-rules';
import { complianceReasons, statusOf } from './sale-compliance';

const NO_RISK = { fraud_score: 0, risk_level: 'LOW', signals: [] } as unknown as FraudAssessment;
const NO_WARNINGS = { warnings: [] } as unknown as JurisdictionResolution;

function evidenceCodes(rule: JurisdictionRule, date: string): string[] {
  return complianceReasons({
    explicit: undefined,
    contradicts: false,
    environment: 'production',
    rule,
    jurisdiction: NO_WARNINGS,
    fraud: NO_RISK,
    date,
  }).map((reason) => `${reason.code} ${reason.severity}`);
}

describe('how sure the rule behind a sale is', () => {
  const checked = ruleAt({ state: 'WA', last_verified: '2026-09-01' });

  it('says nothing of a rule with medium confidence checked within 90 days', () => {
    expect(evidenceCodes(checked, '2026-10-01')).toEqual([]);
  });

  it('warns RULE_STALE once the record is more than 90 days unchecked, and names the day it was checked', () => {
    expect(evidenceCodes(checked, '2026-11-30')).toEqual([]); // day 90
    const reasons = complianceReasons({
      explicit: undefined,
      contradicts: false,
      environment: 'production',
      rule: checked,
      jurisdiction: NO_WARNINGS,
      fraud: NO_RISK,
      date: '2026-12-01',
    });
    expect(reasons).toEqual([
      {
        code: 'RULE_STALE',
        severity: 'WARN',
        message: 'the rule of US-WA (Test Ordinance 1) was last checked against its sources on 2026-09-01',
      },
    ]);
    expect(statusOf(reasons)).toBe('WARN');
  });

  it('warns RULE_STALE for a pending bill whose session ended after its last check, though the check is recent', () => {
    const pending = ruleAt({ state: 'FL', status: 'pending', session_ends: '2026-10-15', last_verified: '2026-10-01' });
    expect(evidenceCodes(pending, '2026-10-15')).toEqual([]);
    expect(evidenceCodes(pending, '2026-10-16')).toEqual(['RULE_STALE WARN']);
    // Checked again after the session ended: what it says is current again.
    expect(evidenceCodes({ ...pending, last_verified: '2026-10-16' }, '2026-10-20')).toEqual([]);
  });

  it('warns RULE_UNCONFIRMED for low confidence, and both reasons together when low and stale', () => {
    const low = ruleAt({ state: 'AZ', confidence: 'low', source_kind: 'news', last_verified: '2026-09-01' });
    expect(evidenceCodes(low, '2026-10-01')).toEqual(['RULE_UNCONFIRMED WARN']);
    expect(evidenceCodes(low, '2027-01-01')).toEqual(['RULE_UNCONFIRMED WARN', 'RULE_STALE WARN']);
  });
});
