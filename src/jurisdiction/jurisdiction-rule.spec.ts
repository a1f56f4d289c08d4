import { isIsoDate, parseJurisdictionRule } from './jurisdiction-rule';

describe('isIsoDate', () => {
  it.each(['2026-04-17', '2024-02-29', '2000-02-29', '1999-12-31'])('accepts %s', (date) => {
    expect(isIsoDate(date)).toBe(true);
  });

  it.each(['2026-02-29', '1900-02-29', '2026-13-01', '2026-00-10', '2026-04-31', '2026-4-17', '2026-04-17T00:00:00Z', 20260417, null])(
    'rejects %p',
    (date) => {
      expect(isIsoDate(date)).toBe(false);
    },
  );
});

describe('parseJurisdictionRule', () => {
  const county = {
    lookup_key: 'AZ-Maricopa',
    jurisdiction_id: 'US-AZ-Maricopa',
    jurisdiction_level: 'county',
    state: 'AZ',
    county: 'Maricopa',
    city: null,
    rounding_mode: 'nearest_nickel',
    enforcement: 'permissive',
    status: 'enacted',
    legislation: null,
    effective_date: '2027-01-01',
    disclosure_required: false,
    disclosure_text: null,
    cash_acceptance_law: false,
    source: [],
    notes: '',
    as_of: null,
    rule_type: 'rounding',
    scope: 'retail',
  };

  it('returns a plain copy of a valid rule', () => {
    const rule = parseJurisdictionRule(county);
    expect(rule).toEqual(county);
    expect(rule.source).not.toBe(county.source);
  });

  it('requires the place fields of its level', () => {
    expect(() => parseJurisdictionRule({ ...county, county: null })).toThrow('county: is required for a county rule');
    expect(() => parseJurisdictionRule({ ...county, city: 'Phoenix' })).toThrow('city: must be null for a county rule');
    expect(() => parseJurisdictionRule({ ...county, jurisdiction_id: 'US-AZ' })).toThrow(
      'jurisdiction_id: must be US-AZ-Maricopa for this place',
    );
  });

  it('lists every missing field', () => {
    expect(() => parseJurisdictionRule({})).toThrow(/^lookup_key: is required; jurisdiction_id: is required;/);
    expect(() => parseJurisdictionRule([])).toThrow('(rule): must be an object');
  });
});
