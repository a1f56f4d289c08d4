import { JurisdictionNotFoundError, JurisdictionValidationError } from './jurisdiction.errors';
import { JurisdictionRule, RuleValidationError } from './jurisdiction-rule';
import { JurisdictionResolution } from './jurisdiction-resolver';
import { JurisdictionRuleStore } from '../jurisdiction/rule-store';
import { dataSummary, listRules } from '../jurisdiction/rule-views';
import { loadSeeds } from '../jurisdiction/seed-loader';
import { SeedData } from './seed-data';
import { recordRule, ruleAt, seededRuleStore } from '../../test/support/jurisdiction-rules';

const DATE = '2026-10-01';

let seeds: SeedData;
let resolver: JurisdictionRuleStore;
beforeAll(() => {
  seeds = loadSeeds();
  resolver = seededRuleStore(seeds);
});

/** The seeds have no enacted city or county rounding rule, so tests that need one record it. */
function withRules(...rules: Partial<JurisdictionRule>[]): JurisdictionRuleStore {
  const fresh = seededRuleStore(seeds);
  for (const rule of rules) recordRule(fresh, ruleAt(rule));
  return fresh;
}

/** The lookup keys of the stale records recorded by `withRules` (the seeds' own are older). */
function listed(resolver: JurisdictionRuleStore, today: string): string[] {
  return listRules(resolver, { staleOn: today })
    .filter((rule) => rule.notes === 'recorded by a test')
    .map((rule) => rule.lookup_key);
}

function summary(resolution: JurisdictionResolution) {
  return {
    applied: resolution.rule.lookup_key,
    level: resolution.level,
    hierarchy: resolution.hierarchy.map((e) => [
      e.level,
      e.rule.lookup_key,
      e.applied ? 'applied' : e.not_applied_reason,
    ]),
    warnings: resolution.warnings.map((w) => w.code),
  };
}

describe('ZIP resolution with the seed rules', () => {
  it('applies an enacted state rule: Arizona swedish rounding, mandatory', () => {
    const result = resolver.resolve({ zip_code: '85004', date: DATE });
    expect(result).toMatchObject({
      level: 'state',
      jurisdiction_id: 'US-AZ',
      rule: {
        rounding_mode: 'swedish_rounding',
        enforcement: 'mandatory',
        legislation: expect.stringContaining('SB 1108'),
      },
      location: { zip: '85004', state: 'AZ', county: 'Maricopa', city: 'Phoenix', county_fips: '04013' },
      warnings: [],
    });
    expect(result.rule.source.length).toBeGreaterThan(0);
    expect(summary(result).hierarchy).toEqual([
      ['state', 'AZ', 'applied'],
      ['federal', 'US', 'not_enacted'],
    ]);
  });

  it.each([
    ['46204', 'IN', 'nearest_nickel'],
    ['37203', 'TN', 'symmetrical_rounding'],
  ])('applies the enacted rule of the ZIP %s state %s', (zip, state, mode) => {
    expect(resolver.resolve({ zip_code: zip, date: DATE }).rule).toMatchObject({
      lookup_key: state,
      rounding_mode: mode,
    });
  });

  it('falls to the federal default where the state has no law: Arkansas', () => {
    const result = resolver.resolve({ zip_code: '72201', date: DATE });
    expect(result.rule).toMatchObject({
      lookup_key: 'US',
      rounding_mode: 'symmetrical_rounding',
      enforcement: 'voluntary',
    });
    expect(summary(result)).toMatchObject({
      level: 'federal',
      hierarchy: [
        ['state', 'AR', 'not_enacted'],
        ['federal', 'US', 'applied'],
      ],
      warnings: [],
    });
  });

  it('lists a pending state rule without applying it: Florida', () => {
    const result = resolver.resolve({ zip_code: '33101', date: DATE });
    expect(result.level).toBe('federal');
    expect(result.hierarchy[0]).toMatchObject({
      level: 'state',
      applied: false,
      not_applied_reason: 'not_enacted',
      rule: { status: 'pending' },
    });
  });

  it('does not apply an enacted rule of another scope: Utah alcohol sales, New Mexico government payments', () => {
    expect(summary(resolver.resolve({ zip_code: '84101', date: DATE })).hierarchy[0]).toEqual([
      'state',
      'UT',
      'other_scope',
    ]);
    expect(summary(resolver.resolve({ zip_code: '87501', date: DATE })).hierarchy[0]).toEqual([
      'state',
      'NM',
      'other_scope',
    ]);
  });

  it('applies an enacted rule only from its effective date: Alabama from 2026-04-17', () => {
    expect(summary(resolver.resolve({ zip_code: '36104', date: '2026-04-16' })).hierarchy).toEqual([
      ['state', 'AL', 'not_yet_in_force'],
      ['federal', 'US', 'applied'],
    ]);
    expect(resolver.resolve({ zip_code: '36104', date: '2026-04-17' }).jurisdiction_id).toBe('US-AL');
  });

  it('lists the cash-acceptance ordinance of New York City for every borough, never applies it', () => {
    for (const [zip, borough] of [
      ['10001', 'New York'],
      ['11201', 'Kings'],
      ['10301', 'Richmond'],
    ]) {
      expect(summary(resolver.resolve({ zip_code: zip, date: DATE }))).toEqual({
        applied: 'US',
        level: 'federal',
        hierarchy: [
          ['city', `NY-${borough}-New York City`, 'not_a_rounding_rule'],
          ['state', 'NY', 'not_enacted'],
          ['federal', 'US', 'applied'],
        ],
        warnings: [],
      });
    }
    expect(summary(resolver.resolve({ zip_code: '19103', date: DATE })).hierarchy[0]).toEqual([
      'city',
      'PA-Philadelphia-Philadelphia',
      'not_a_rounding_rule',
    ]);
  });
});

describe('cascade with recorded county and city rules', () => {
  it('a county rule beats the state rule', () => {
    const withCounty = withRules({ state: 'AZ', county: 'Maricopa', rounding_mode: 'mandatory_round_down' });
    expect(summary(withCounty.resolve({ zip_code: '85004', date: DATE }))).toEqual({
      applied: 'AZ-Maricopa',
      level: 'county',
      hierarchy: [
        ['county', 'AZ-Maricopa', 'applied'],
        ['state', 'AZ', 'superseded'],
        ['federal', 'US', 'not_enacted'],
      ],
      warnings: [],
    });
    expect(withCounty.resolve({ zip_code: '85701', date: DATE }).jurisdiction_id).toBe('US-AZ');
  });

  it('a city rule beats its county and state rules, beside the ordinance at the same place', () => {
    const withCity = withRules(
      { state: 'NY', county: 'Kings', rounding_mode: 'mandatory_round_up' },
      { state: 'NY', county: 'Kings', city: 'New York City', rounding_mode: 'nearest_dime' },
    );
    const result = withCity.resolve({ zip_code: '11201', date: DATE });
    expect(result.rule).toMatchObject({
      lookup_key: 'NY-Kings-New York City',
      rule_type: 'rounding',
      rounding_mode: 'nearest_dime',
    });
    expect(summary(result).hierarchy).toEqual([
      ['city', 'NY-Kings-New York City', 'not_a_rounding_rule'],
      ['city', 'NY-Kings-New York City', 'applied'],
      ['county', 'NY-Kings', 'superseded'],
      ['state', 'NY', 'not_enacted'],
      ['federal', 'US', 'not_enacted'],
    ]);
  });

  it('matches recorded names however the caller spells them', () => {
    const withCity = withRules({ state: 'MO', county: 'St. Louis city', city: 'St. Louis' });
    const result = withCity.resolve({ state: 'mo', county: 'Saint Louis City', city: 'saint louis', date: DATE });
    expect(result.rule.lookup_key).toBe('MO-St. Louis city-St. Louis');
    expect(withCity.resolve({ zip_code: '63101', date: DATE }).level).toBe('city');
    expect(withCity.resolve({ zip_code: '63105', date: DATE }).level).toBe('federal');
  });
});

describe('rule versions', () => {
  it('applies a later version from its effective date on, and the earlier one before', () => {
    const enacted = withRules({
      state: 'FL',
      rounding_mode: 'symmetrical_rounding',
      enforcement: 'permissive',
      effective_date: '2026-07-01',
    });
    expect(enacted.resolve({ zip_code: '33101', date: '2026-06-30' }).hierarchy[0]).toMatchObject({
      rule: { status: 'pending', effective_date: null },
      not_applied_reason: 'not_enacted',
    });
    expect(enacted.resolve({ zip_code: '33101', date: '2026-07-01' }).rule).toMatchObject({
      lookup_key: 'FL',
      status: 'enacted',
    });
  });

  it('replaces the version with the same effective date, and stops a rule with a later failed version', () => {
    const repealed = withRules(
      {
        state: 'AZ',
        rounding_mode: 'mandatory_round_down',
        enforcement: 'mandatory',
        legislation: 'SB 1108 as amended',
      },
      { state: 'AZ', status: 'failed', effective_date: '2027-01-01' },
    );
    expect(repealed.resolve({ zip_code: '85004', date: DATE }).rule).toMatchObject({
      legislation: 'SB 1108 as amended',
    });
    expect(repealed.resolve({ zip_code: '85004', date: '2027-01-01' }).level).toBe('federal');
    expect(listRules(repealed, { state: 'AZ' }).map((r) => r.effective_date)).toEqual([null, '2027-01-01']);
  });

  it('checks a rule without recording it', () => {
    const fresh = seededRuleStore(seeds);
    expect(fresh.checkRule(ruleAt({ state: 'AZ', county: 'Maricopa' })).lookup_key).toBe('AZ-Maricopa');
    expect(fresh.resolve({ zip_code: '85004', date: DATE }).level).toBe('state');
    expect(() => fresh.checkRule(ruleAt({ state: 'ZZ' }))).toThrow(
      expect.objectContaining({ reason: 'UNKNOWN_STATE', status: 400 }),
    );
  });

  it('validates a recorded rule field by field', () => {
    const invalid = () => recordRule(resolver, { ...ruleAt({ state: 'AZ' }), rounding_mode: 'to_quarter', extra: 1 });
    expect(invalid).toThrow(RuleValidationError);
    expect(invalid).toThrow(
      expect.objectContaining({
        problems: [
          { field: 'extra', message: 'is not a rule field' },
          { field: 'rounding_mode', message: expect.stringMatching(/^must be one of/) },
        ],
      }),
    );
    expect(invalid).toThrow(
      expect.objectContaining({
        code: 'VALIDATION_ERROR',
        status: 400,
        details: [
          { field: 'extra', messages: ['extra is not a rule field'] },
          { field: 'rounding_mode', messages: [expect.stringMatching(/^rounding_mode must be one of/)] },
        ],
      }),
    );
    expect(() => recordRule(resolver, ruleAt({ state: 'ZZ' }))).toThrow(
      expect.objectContaining({ reason: 'UNKNOWN_STATE' }),
    );
  });

  it('hands out frozen records', () => {
    const rule = resolver.resolve({ zip_code: '85004', date: DATE }).rule;
    expect(Object.isFrozen(rule) && Object.isFrozen(rule.source)).toBe(true);
  });
});

describe('warnings and fallbacks', () => {
  it('applies the ZIP rule when the state disagrees with it, and warns', () => {
    const result = resolver.resolve({ zip_code: '85004', state: 'CA', date: DATE });
    expect(summary(result)).toMatchObject({ applied: 'AZ', warnings: ['STATE_ZIP_MISMATCH'] });
    expect(resolver.resolve({ zip_code: '85004', state: 'az', date: DATE }).warnings).toEqual([]);
  });

  it('falls back to the federal default for a well-formed ZIP not in the data', () => {
    const result = resolver.resolve({ zip_code: '20500', date: DATE });
    expect(summary(result)).toEqual({
      applied: 'US',
      level: 'federal',
      hierarchy: [['federal', 'US', 'applied']],
      warnings: ['UNKNOWN_ZIP_FALLBACK'],
    });
    expect(result.location).toEqual({ zip: '20500', state: null, county: null, city: null, county_fips: null });
  });

  it('falls back to the federal default without any location', () => {
    expect(summary(resolver.resolve({ date: DATE }))).toMatchObject({
      applied: 'US',
      warnings: ['NO_LOCATION_FALLBACK'],
    });
    expect(summary(resolver.resolve({ county: 'Maricopa', date: DATE }))).toMatchObject({
      applied: 'US',
      warnings: ['NO_LOCATION_FALLBACK'],
    });
  });

  it.each(['1234', '123456', '12345-6789', 'abcde', ' 85004', ''])('rejects the malformed ZIP %p', (zip) => {
    expect(() => resolver.resolve({ zip_code: zip, date: DATE })).toThrow(
      expect.objectContaining({ reason: 'INVALID_ZIP_CODE', field: 'zip_code' }),
    );
  });

  it('rejects a malformed date or state', () => {
    expect(() => resolver.resolve({ zip_code: '85004', date: '2026-13-01' })).toThrow(
      expect.objectContaining({ reason: 'INVALID_DATE' }),
    );
    expect(() => resolver.resolve({ state: 'Arizona', date: DATE })).toThrow(
      expect.objectContaining({ reason: 'INVALID_STATE' }),
    );
    expect(() => resolver.resolve({ state: 'ZZ', date: DATE })).toThrow(
      expect.objectContaining({ reason: 'UNKNOWN_STATE' }),
    );
  });

  it('warns about a county not in the data, and about a city given without its county', () => {
    expect(summary(resolver.resolve({ state: 'AZ', county: 'Atlantis', date: DATE }))).toMatchObject({
      applied: 'AZ',
      warnings: ['UNKNOWN_COUNTY'],
    });
    expect(summary(resolver.resolve({ state: 'AZ', city: 'Phoenix', date: DATE }))).toMatchObject({
      applied: 'AZ',
      warnings: ['CITY_WITHOUT_COUNTY'],
    });
  });

  it('resolves names to the data spelling: accents, Saint, County suffix, independent cities', () => {
    expect(
      resolver.resolve({ state: 'PR', county: 'Mayaguez Municipio', city: 'MAYAGÜEZ', date: DATE }).location,
    ).toMatchObject({
      county: 'Mayagüez',
      city: 'Mayaguez',
      county_fips: '72097',
    });
    expect(resolver.resolve({ state: 'MO', county: 'Saint Louis County', date: DATE }).location.county_fips).toBe(
      '29189',
    );
    expect(resolver.resolve({ state: 'MO', county: 'St. Louis city', date: DATE }).location.county_fips).toBe('29510');
    expect(resolver.resolve({ state: 'VA', county: 'Virginia Beach', date: DATE }).location).toMatchObject({
      county: 'Virginia Beach city',
      county_fips: '51810',
    });
    expect(resolver.resolve({ state: 'LA', county: 'Orleans Parish', date: DATE }).warnings).toEqual([]);
  });
});

describe('lookups for the HTTP endpoints', () => {
  it('ruleFor a state, a county and a city falls back to the nearest rule', () => {
    const withCounty = withRules({ state: 'AZ', county: 'Maricopa' });
    expect(withCounty.ruleFor({ state: 'az' }, DATE).rule.lookup_key).toBe('AZ');
    expect(withCounty.ruleFor({ state: 'AZ', county: 'Maricopa County' }, DATE).rule.lookup_key).toBe('AZ-Maricopa');
    expect(withCounty.ruleFor({ state: 'AZ', county: 'Pima' }, DATE).rule.lookup_key).toBe('AZ');
    expect(withCounty.ruleFor({ state: 'AZ', county: 'Maricopa', city: 'Phoenix' }, DATE).rule.lookup_key).toBe(
      'AZ-Maricopa',
    );
    expect(withCounty.ruleFor({ state: 'AZ', county: 'Pima', city: 'Tucson' }, DATE).rule.lookup_key).toBe('AZ');
  });

  it('ruleFor an unknown state is not found; a malformed one is invalid', () => {
    expect(() => resolver.ruleFor({ state: 'ZZ' }, DATE)).toThrow(JurisdictionNotFoundError);
    expect(() => resolver.ruleFor({ state: 'ZZ' }, DATE)).toThrow(
      expect.objectContaining({ code: 'NOT_FOUND', status: 404 }),
    );
    expect(() => resolver.ruleFor({ state: 'A1' }, DATE)).toThrow(JurisdictionValidationError);
    expect(() => resolver.ruleFor({ state: 'A1' }, DATE)).toThrow(
      expect.objectContaining({
        code: 'VALIDATION_ERROR',
        status: 400,
        details: [{ field: 'state', messages: [expect.any(String)] }],
      }),
    );
  });

  it('ruleForZip resolves a known ZIP; one missing from the data is not found rather than a fallback', () => {
    expect(resolver.ruleForZip('85004', DATE).jurisdiction_id).toBe('US-AZ');
    expect(() => resolver.ruleForZip('20500', DATE)).toThrow(JurisdictionNotFoundError);
    expect(() => resolver.ruleForZip('2050', DATE)).toThrow(expect.objectContaining({ reason: 'INVALID_ZIP_CODE' }));
  });

  it('summarizes the data for /health: the newest last_verified, the counts, and how many records are stale on the day', () => {
    const newest = seeds.rules
      .map((rule) => rule.last_verified)
      .sort()
      .at(-1)!;
    expect(dataSummary(resolver, newest)).toMatchObject({
      last_verified: newest,
      stale: expect.any(Number),
      zip_codes: 33_791,
      rules: 66,
    });
    // More than 90 days after the newest verification, every seeded record is stale.
    const later = new Date(Date.parse(newest) + 91 * 86_400_000).toISOString().slice(0, 10);
    expect(dataSummary(resolver, later).stale).toBe(66);
    expect(dataSummary(withRules({ state: 'AZ', county: 'Maricopa', last_verified: later }), later)).toEqual({
      last_verified: later,
      stale: 66,
      zip_codes: 33_791,
      rules: 67,
    });
  });

  it('counts a bill as stale once its session has ended, however recently it was verified or searched, until its status changes', () => {
    const bill = { state: 'AZ', status: 'pending' as const, last_verified: '2026-05-01', session_ends: '2026-06-30' };
    expect(listed(withRules(bill), '2026-06-30')).toEqual([]);
    expect(listed(withRules(bill), '2026-07-01')).toEqual(['AZ']);
    expect(
      listed(withRules({ ...bill, last_verified: '2026-07-02', last_searched: '2026-07-03' }), '2026-07-03'),
    ).toEqual(['AZ']);
    expect(
      listed(withRules({ ...bill, status: 'failed' as const, last_verified: '2026-07-02' }), '2026-07-03'),
    ).toEqual([]);
    expect(listed(withRules({ ...bill, status: 'proposed' as const, session_ends: null }), '2026-05-02')).toEqual([
      'AZ',
    ]);
    expect(listed(withRules({ ...bill, status: 'enacted' as const }), '2026-07-01')).toEqual([]);
    expect(listed(withRules({ ...bill, status: 'enacted' as const }), '2026-07-31')).toEqual(['AZ']);
  });

  it('lists every rule, filtered by status and state', () => {
    expect(listRules(resolver)).toHaveLength(66);
    expect(listRules(resolver)[0].lookup_key).toBe('US');
    expect(listRules(resolver, { status: 'pending' }).map((r) => r.lookup_key)).toEqual([
      'FL',
      'HI',
      'IA',
      'NY',
      'OK',
      'OR',
      'VA',
    ]);
    expect(listRules(resolver, { state: 'ny' }).map((r) => r.jurisdiction_level)).toEqual([
      'state',
      'city',
      'city',
      'city',
      'city',
      'city',
    ]);
    expect(listRules(resolver, { status: 'enacted', state: 'AZ' })).toHaveLength(1);
    expect(() => listRules(resolver, { status: 'repealed' })).toThrow(
      expect.objectContaining({ reason: 'INVALID_STATUS' }),
    );
  });

  it('finds a ZIP record by a map lookup', () => {
    expect(resolver.resolver.zip('99501')).toMatchObject({ state: 'AK', county: 'Anchorage' });
    expect(resolver.resolver.zip('20500')).toBeUndefined();
  });
});
