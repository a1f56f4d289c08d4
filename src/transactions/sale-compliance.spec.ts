import type { FraudAssessment } from '../rules/fraud-signals';
import type { JurisdictionRule } from '../rules/jurisdiction-rule';
import type { HierarchyEntry, JurisdictionResolution } from '../rules/jurisdiction-resolver';
import { ruleAt } from '../../test/support/jurisdiction-rules';
import { complianceReasons, statusOf } from './sale-compliance';

const NO_RISK = { fraud_score: 0, risk_level: 'LOW', signals: [] } as unknown as FraudAssessment;
const NO_WARNINGS = { warnings: [], hierarchy: [] } as unknown as JurisdictionResolution;

function reasonsOf(
  rule: JurisdictionRule,
  date: string,
  more: { jurisdiction?: JurisdictionResolution; roundingDeltaCents?: number; explicit?: 'mandatory_round_up' } = {},
) {
  return complianceReasons({
    explicit: more.explicit,
    contradicts: more.explicit !== undefined,
    environment: 'production',
    rule,
    jurisdiction: more.jurisdiction ?? NO_WARNINGS,
    fraud: NO_RISK,
    date,
    roundingDeltaCents: more.roundingDeltaCents ?? 0,
  });
}

function evidenceCodes(rule: JurisdictionRule, date: string): string[] {
  return reasonsOf(rule, date).map((reason) => `${reason.code} ${reason.severity}`);
}

describe('how sure the rule behind a sale is', () => {
  const checked = ruleAt({ state: 'WA', last_verified: '2026-09-01' });

  it('says nothing of a rule with medium confidence checked within 90 days', () => {
    expect(evidenceCodes(checked, '2026-10-01')).toEqual([]);
  });

  it('warns RULE_STALE once the record is more than 90 days unchecked, and names the day it was checked', () => {
    expect(evidenceCodes(checked, '2026-11-30')).toEqual([]); // day 90
    const reasons = reasonsOf(checked, '2026-12-01');
    expect(reasons).toEqual([
      {
        code: 'RULE_STALE',
        severity: 'WARN',
        message:
          'the mandatory mandatory_round_down rule of US-WA (Test Ordinance 1) may be out of date: it was last checked against its sources on 2026-09-01',
      },
    ]);
    expect(statusOf(reasons)).toBe('WARN');
  });

  it('warns RULE_STALE for a pending bill past its session, however recently it was verified or searched', () => {
    const pending = ruleAt({ state: 'FL', status: 'pending', session_ends: '2026-10-15', last_verified: '2026-10-01' });
    expect(evidenceCodes(pending, '2026-10-15')).toEqual([]);
    expect(evidenceCodes(pending, '2026-10-16')).toEqual(['RULE_STALE WARN']);
    const lookedAgain = { ...pending, last_verified: '2026-10-16', last_searched: '2026-10-19' };
    expect(reasonsOf(lookedAgain, '2026-10-20')).toEqual([
      expect.objectContaining({
        message: expect.stringContaining('still pending though its session ended on 2026-10-15'),
      }),
    ]);
    // Only a new status (enacted, failed) clears it.
    expect(evidenceCodes({ ...lookedAgain, status: 'failed' }, '2026-10-20')).toEqual([]);
  });

  it('warns RULE_STALE for a proposed bill with no recorded end of session', () => {
    expect(
      evidenceCodes(ruleAt({ state: 'VT', status: 'proposed', last_verified: '2026-10-01' }), '2026-10-02'),
    ).toEqual(['RULE_STALE WARN']);
  });

  it('warns RULE_UNCONFIRMED for low confidence, and both reasons together when low and stale', () => {
    const low = ruleAt({ state: 'AZ', confidence: 'low', source_kind: 'news', last_verified: '2026-09-01' });
    expect(evidenceCodes(low, '2026-10-01')).toEqual(['RULE_UNCONFIRMED WARN']);
    expect(evidenceCodes(low, '2027-01-01')).toEqual(['RULE_UNCONFIRMED WARN', 'RULE_STALE WARN']);
  });

  it('names a low-confidence mandatory rule as recorded, unconfirmed, never as the law', () => {
    const low = ruleAt({ state: 'AZ', confidence: 'low', source_kind: 'news', last_verified: '2026-09-01' });
    const messages = reasonsOf(low, '2026-10-01', { explicit: 'mandatory_round_up' }).map((reason) => reason.message);
    expect(messages).toEqual([
      'the mandatory mandatory_round_down rule of US-AZ (Test Ordinance 1), as recorded, unconfirmed, rests on news sources with low confidence: its enactment or content is not confirmed by official text',
      'cash_rounding_mode mandatory_round_up gives a cash total the mandatory mandatory_round_down rule of US-AZ (Test Ordinance 1), as recorded, unconfirmed, does not accept',
    ]);
    const confirmed = reasonsOf(checked, '2026-10-01', { explicit: 'mandatory_round_up' });
    expect(confirmed.map((reason) => reason.message).join()).not.toContain('unconfirmed');
  });
});

describe('a cash total rounded up where a law bars charging cash payers more', () => {
  const entry = (rule: JurisdictionRule, notAppliedReason?: HierarchyEntry['not_applied_reason']): HierarchyEntry => ({
    level: rule.jurisdiction_level,
    applied: notAppliedReason === undefined,
    ...(notAppliedReason && { not_applied_reason: notAppliedReason }),
    rule,
  });
  const city = ruleAt({
    state: 'NY',
    county: 'Kings',
    city: 'New York City',
    rule_type: 'cash_acceptance',
    status: 'enacted',
    enforcement: 'none',
    rounding_mode: 'none',
    legislation: 'Local Law 34 of 2020',
    cash_surcharge_barred: true,
  });
  const federal = ruleAt({ state: 'NY', rounding_mode: 'symmetrical_rounding', enforcement: 'voluntary' });
  const resolution = (...hierarchy: HierarchyEntry[]) =>
    ({ warnings: [], hierarchy }) as unknown as JurisdictionResolution;

  it('is WARN CASH_SURCHARGE_BARRED naming the law, only when the cash was rounded up', () => {
    const inCity = resolution(entry(city, 'not_a_rounding_rule'), entry(federal));
    const up = reasonsOf(federal, '2026-10-01', { jurisdiction: inCity, roundingDeltaCents: 2 });
    expect(up).toEqual([
      {
        code: 'CASH_SURCHARGE_BARRED',
        severity: 'WARN',
        message:
          'cash was rounded up by 2 cents where a law bars charging cash payers more than others (the records of US-NY-Kings-New York City say cash_surcharge_barred; their notes cite the law); a favor_customer rounding policy rounds down instead',
      },
    ]);
    expect(statusOf(up)).toBe('WARN');
    expect(reasonsOf(federal, '2026-10-01', { jurisdiction: inCity, roundingDeltaCents: -2 })).toEqual([]);
    expect(reasonsOf(federal, '2026-10-01', { jurisdiction: inCity, roundingDeltaCents: 0 })).toEqual([]);
  });

  it('says nothing where the records are silent or the law is not in force on the sale date', () => {
    const silent = resolution(entry({ ...city, cash_surcharge_barred: null }, 'not_a_rounding_rule'), entry(federal));
    expect(reasonsOf(federal, '2026-10-01', { jurisdiction: silent, roundingDeltaCents: 2 })).toEqual([]);
    const notYet = resolution(entry(city, 'not_yet_in_force'), entry(federal));
    expect(reasonsOf(federal, '2026-10-01', { jurisdiction: notYet, roundingDeltaCents: 2 })).toEqual([]);
  });
});
