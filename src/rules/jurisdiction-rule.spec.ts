import { isIsoDate, parseJurisdictionRule, upgradeRecordedRule } from './jurisdiction-rule';

describe('isIsoDate', () => {
  it.each(['2026-04-17', '2024-02-29', '2000-02-29', '1999-12-31'])('accepts %s', (date) => {
    expect(isIsoDate(date)).toBe(true);
  });

  it.each([
    '2026-02-29',
    '1900-02-29',
    '2026-13-01',
    '2026-00-10',
    '2026-04-31',
    '2026-4-17',
    '2026-04-17T00:00:00Z',
    20260417,
    null,
  ])('rejects %p', (date) => {
    expect(isIsoDate(date)).toBe(false);
  });
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
    choice: null,
    enforcement: 'permissive',
    status: 'enacted',
    legislation: null,
    effective_date: '2027-01-01',
    expires_date: null,
    enacted_date: '2026-10-02',
    session_ends: null,
    disclosure_required: true,
    disclosure_text: null,
    cash_acceptance_law: false,
    source: [],
    notes: '',
    last_verified: '2026-11-20',
    last_searched: '2026-11-25',
    source_kind: 'regulation',
    confidence: 'high',
    cash_surcharge_barred: false,
    rule_type: 'rounding',
    scope: 'retail',
    rounds: 'change',
    exact_change_exempt: true,
    small_total: { kind: 'exempt_up_to', cents: 4 },
    refunds: 'exact_amount',
    disclosure: { kind: 'sign', text: null, itemized: false },
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

  it('holds the version 2 fields to what they can mean together', () => {
    const problem = (fields: Record<string, unknown>) => () => parseJurisdictionRule({ ...county, ...fields });
    expect(problem({ expires_date: '2027-01-01' })).toThrow('expires_date: must be after effective_date');
    expect(problem({ effective_date: null, expires_date: '2027-06-01' })).toThrow(
      'expires_date: must be after effective_date',
    );
    expect(problem({ source_kind: 'vendor' })).toThrow('confidence: cannot be high on a vendor source');
    expect(problem({ disclosure: { kind: 'none', text: null, itemized: false } })).toThrow(
      'disclosure_required: must be true exactly when disclosure.kind is not none',
    );
    expect(problem({ disclosure_text: 'Rounded.' })).toThrow('disclosure_text: must equal disclosure.text');
    expect(problem({ small_total: { kind: 'exempt_up_to', cents: 0 } })).toThrow(
      'small_total: exempt_up_to needs cents',
    );
    expect(problem({ small_total: { kind: 'round_up_to_nickel', cents: 2 } })).toThrow(
      'small_total: round_up_to_nickel takes no other field',
    );
    expect(problem({ scope: 'casinos' })).toThrow('scope: must be one of retail');
    expect(problem({ choice: 'round_up' })).toThrow('choice: must be one of either_neighbor');
    expect(problem({ disclosure: { kind: 'sign', text: null } })).toThrow('disclosure: itemized must be true or false');
    expect(
      parseJurisdictionRule({ ...county, expires_date: '2027-07-01', small_total: { kind: 'round_up_to_nickel' } })
        .expires_date,
    ).toBe('2027-07-01');
  });

  it('reads a rule recorded before version 2 as rounding as it did then, its as_of as last_verified, its sources unjudged', () => {
    const {
      choice: _o,
      expires_date: _e,
      enacted_date: _n,
      session_ends: _s,
      last_verified: _l,
      source_kind: _k,
      confidence: _c,
      rounds: _r,
      exact_change_exempt: _x,
      small_total: _t,
      refunds: _f,
      disclosure: _d,
      ...v1
    } = county;
    const upgraded = parseJurisdictionRule(
      upgradeRecordedRule({ ...v1, as_of: '2026-03-01', disclosure_text: 'Rounded to 5 cents.' }),
    );
    expect(upgraded).toMatchObject({
      last_verified: '2026-03-01',
      source_kind: 'news',
      confidence: 'low',
      rounds: 'total',
      exact_change_exempt: false,
      small_total: null,
      refunds: 'mirror_original',
      disclosure: { kind: 'receipt', text: 'Rounded to 5 cents.', itemized: false },
    });
    expect(upgradeRecordedRule(county)).toEqual(county);
  });

  it('reads a body without the fields added since version 3 as null: choice (the mode decides), last_searched, cash_surcharge_barred', () => {
    const { choice: _o, last_searched: _s, cash_surcharge_barred: _b, ...v2 } = county;
    expect(parseJurisdictionRule(upgradeRecordedRule(v2))).toEqual({
      ...county,
      choice: null,
      last_searched: null,
      cash_surcharge_barred: null,
    });
    expect(upgradeRecordedRule({ ...county, choice: 'either_neighbor' })).toMatchObject({ choice: 'either_neighbor' });
  });

  it('checks the optional fields when given', () => {
    expect(() => parseJurisdictionRule({ ...county, last_searched: '2026-13-01' })).toThrow(
      'last_searched: must be an ISO date (YYYY-MM-DD) or null',
    );
    expect(() => parseJurisdictionRule({ ...county, cash_surcharge_barred: 'yes' })).toThrow(
      'cash_surcharge_barred: must be true or false',
    );
    expect(() => parseJurisdictionRule({ ...county, choice: 'up' })).toThrow('choice: must be one of either_neighbor');
  });

  it('lists every missing field', () => {
    expect(() => parseJurisdictionRule({})).toThrow(/^lookup_key: is required; jurisdiction_id: is required;/);
    expect(() => parseJurisdictionRule([])).toThrow('(rule): must be an object');
  });
});
