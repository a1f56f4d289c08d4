import fc from 'fast-check';
import { loadSeeds } from '../jurisdiction/seed-loader';
import { tipCreditKey, tipCreditKeysOf, type TipCreditRule } from './seed-data';
import { checkTipCredit, checkTipCreditAt, lowestConfidence, tipCreditRuleOn, tipCreditRulesAt } from './tip-credit';

const { tipCreditRules } = loadSeeds();
const rule = (state: string, date = '2026-11-21') => tipCreditRuleOn(tipCreditRules, state, date)!;
const check = (state: string, hourlyWageCents: number, averageTipsPerHourCents: number) =>
  checkTipCredit(
    { hourly_wage_cents: hourlyWageCents, average_tips_per_hour_cents: averageTipsPerHourCents },
    rule('US'),
    rule(state),
  );
const failed = (result: ReturnType<typeof check>) =>
  result.requirements
    .filter((r) => !r.met)
    .map(({ requirement, required_cents: requiredCents, actual_cents: actualCents }) => [
      requirement,
      requiredCents,
      actualCents,
    ]);

describe('checkTipCredit', () => {
  it('passes the FLSA minimum in a state that follows the federal defaults', () => {
    const result = check('TX', 213, 512);
    expect(result).toEqual({
      status: 'compliant',
      compliant: true,
      reason: null,
      requirements: expect.any(Array),
      unknowns: [],
      notes: [],
    });
    expect(result.requirements).toEqual([
      {
        requirement: 'FLSA_CASH_WAGE',
        jurisdiction: 'US',
        description: expect.any(String),
        required_cents: 213,
        actual_cents: 213,
        met: true,
      },
      {
        requirement: 'FLSA_MINIMUM_WAGE',
        jurisdiction: 'US',
        description: expect.any(String),
        required_cents: 725,
        actual_cents: 725,
        met: true,
      },
      {
        requirement: 'STATE_CASH_WAGE',
        jurisdiction: 'TX',
        description: expect.any(String),
        required_cents: 213,
        actual_cents: 213,
        met: true,
      },
      {
        requirement: 'STATE_MINIMUM_WAGE',
        jurisdiction: 'TX',
        description: expect.any(String),
        required_cents: 725,
        actual_cents: 725,
        met: true,
      },
    ]);
  });

  it('fails a cash wage one cent under the FLSA tipped minimum, and wage plus tips under $7.25', () => {
    const result = check('TX', 212, 512);
    expect(result.compliant).toBe(false);
    expect(failed(result)).toEqual([
      ['FLSA_CASH_WAGE', 213, 212],
      ['FLSA_MINIMUM_WAGE', 725, 724],
      ['STATE_CASH_WAGE', 213, 212],
      ['STATE_MINIMUM_WAGE', 725, 724],
    ]);
  });

  it('checks FLSA alone for US', () => {
    expect(check('US', 213, 600).requirements.map((r) => r.requirement)).toEqual([
      'FLSA_CASH_WAGE',
      'FLSA_MINIMUM_WAGE',
    ]);
  });

  it('holds a state that bans the tip credit to its minimum wage in cash, whatever the tips', () => {
    const result = check('CA', 1500, 2000);
    expect(result.requirements.map((r) => r.requirement)).toEqual([
      'FLSA_CASH_WAGE',
      'FLSA_MINIMUM_WAGE',
      'STATE_CASH_WAGE_NO_TIP_CREDIT',
    ]);
    expect(failed(result)).toEqual([['STATE_CASH_WAGE_NO_TIP_CREDIT', 1690, 1500]]);
    expect(check('CA', 1690, 0).compliant).toBe(true);
  });

  it('holds a state with a higher cash wage to it, though FLSA is met', () => {
    const result = check('HI', 1000, 1000);
    expect(failed(result)).toEqual([['STATE_CASH_WAGE', 1475, 1000]]);
    expect(check('HI', 1475, 125).compliant).toBe(true);
  });

  it('holds wage plus tips to the state minimum where it is above the federal one', () => {
    expect(failed(check('NY', 1070, 500))).toEqual([['STATE_MINIMUM_WAGE', 1600, 1570]]);
  });

  it("is unknown where the state's figures are missing, and non_compliant whatever is unknown once a requirement fails", () => {
    const samoa = check('AS', 213, 600);
    expect(samoa.requirements.map((r) => r.jurisdiction)).toEqual(['US', 'US']);
    expect(samoa).toMatchObject({ status: 'unknown', compliant: null, reason: 'STATE_MINIMUM_UNKNOWN' });
    expect(samoa.unknowns.map((u) => [u.reason, u.jurisdiction])).toEqual([['STATE_MINIMUM_UNKNOWN', 'AS']]);
    const marianas = check('MP', 213, 400);
    expect(failed(marianas)).toEqual([
      ['FLSA_MINIMUM_WAGE', 725, 613],
      ['STATE_MINIMUM_WAGE', 725, 613],
    ]);
    expect(marianas).toMatchObject({ status: 'non_compliant', compliant: false, reason: null });
    // Whether the Marianas allow a tip credit is not recorded: a cash wage under the minimum is unknown, one at it is not.
    expect(check('MP', 213, 600)).toMatchObject({ status: 'unknown', reason: 'STATE_MINIMUM_UNKNOWN' });
    expect(check('MP', 725, 0)).toMatchObject({ status: 'compliant', unknowns: [] });
  });

  it('takes the requirements from the rules it is given', () => {
    const strict: TipCreditRule = { ...rule('TX'), state: 'ZZ', tipped_minimum_cash_wage: 3.01 };
    const result = checkTipCredit({ hourly_wage_cents: 300, average_tips_per_hour_cents: 1000 }, rule('US'), strict);
    expect(failed(result)).toEqual([['STATE_CASH_WAGE', 301, 300]]);
  });
});

describe('checkTipCredit with a city', () => {
  const chicago = (date: string) =>
    tipCreditRuleOn(tipCreditRules, tipCreditKey({ state: 'IL', city: 'chicago' }), date);
  const inChicago = (date: string, hourlyWageCents: number, averageTipsPerHourCents: number) =>
    checkTipCredit(
      { hourly_wage_cents: hourlyWageCents, average_tips_per_hour_cents: averageTipsPerHourCents, city: 'Chicago' },
      rule('US', date),
      rule('IL', date),
      chicago(date),
    );

  it("checks Chicago's own figures beside Illinois's, each law on its own", () => {
    // $10.00 cash meets Illinois's $9.00 tipped wage of 2025 but not Chicago's $11.02 of 2024-07-01.
    const result = inChicago('2025-03-01', 1000, 800);
    expect(failed(result)).toEqual([['LOCAL_CASH_WAGE', 1102, 1000]]);
    expect(result.requirements.filter((r) => r.requirement.startsWith('LOCAL')).map((r) => r.jurisdiction)).toEqual([
      'Chicago, IL',
      'Chicago, IL',
    ]);
  });

  it("checks Chicago's 2025-07-01 figures: $16.60, and $12.62 in cash", () => {
    const result = inChicago('2025-08-01', 900, 800);
    expect(failed(result)).toEqual([['LOCAL_CASH_WAGE', 1262, 900]]);
    expect(result).toMatchObject({ status: 'non_compliant', compliant: false });
    expect(inChicago('2025-08-01', 1262, 398)).toMatchObject({ status: 'compliant', compliant: true });
    expect(failed(inChicago('2025-08-01', 1262, 397))).toEqual([['LOCAL_MINIMUM_WAGE', 1660, 1659]]);
  });

  it("is unknown, never compliant, where the city's figures in force are missing, and never falls back on the state's", () => {
    // $9.00 cash and $8.00 tips meet Illinois's figures; Chicago's of 2026-07-01 are not known.
    const result = inChicago('2026-11-29', 900, 800);
    expect(result.requirements.map((r) => r.requirement)).toEqual([
      'FLSA_CASH_WAGE',
      'FLSA_MINIMUM_WAGE',
      'STATE_CASH_WAGE',
      'STATE_MINIMUM_WAGE',
    ]);
    expect(result).toMatchObject({ status: 'unknown', compliant: null, reason: 'LOCAL_MINIMUM_UNKNOWN' });
    expect(result.unknowns.map((u) => [u.reason, u.jurisdiction])).toEqual([
      ['LOCAL_MINIMUM_UNKNOWN', 'Chicago, IL'],
      ['LOCAL_MINIMUM_UNKNOWN', 'Chicago, IL'],
    ]);
    expect(result.notes.join(' ')).not.toMatch(/state's and FLSA's apply/);
    // A wage that fails Illinois's own figures is non_compliant, known whatever Chicago's are.
    expect(failed(inChicago('2026-11-29', 850, 800))).toEqual([['STATE_CASH_WAGE', 900, 850]]);
    expect(inChicago('2026-11-29', 850, 800).status).toBe('non_compliant');
    expect(chicago('2028-07-01')).toMatchObject({ tip_credit_allowed: null, minimum_wage: null });
    expect(inChicago('2028-07-01', 3000, 0).status).toBe('unknown');
  });

  it('is never compliant under a local record missing a figure the check needs, unless the cash wage alone reaches its minimum (property)', () => {
    const local = (figures: Partial<TipCreditRule>): TipCreditRule => ({
      ...rule('IL'),
      city: 'Anytown',
      minimum_wage: null,
      tipped_minimum_cash_wage: null,
      tip_credit_allowed: true,
      ...figures,
    });
    const missing = fc.constantFrom(
      local({}),
      local({ minimum_wage: 20 }),
      local({ tipped_minimum_cash_wage: 15 }),
      local({ tip_credit_allowed: false }),
      local({ tip_credit_allowed: null }),
    );
    fc.assert(
      fc.property(missing, fc.nat(5000), fc.nat(5000), (city, wage, tips) => {
        const result = checkTipCredit(
          { hourly_wage_cents: wage, average_tips_per_hour_cents: tips, city: 'Anytown' },
          rule('US'),
          rule('IL'),
          city,
        );
        // Only a cash wage that alone reaches a known local minimum is lawful whatever the missing figures.
        if (city.minimum_wage === null || wage < city.minimum_wage * 100) expect(result.compliant).not.toBe(true);
        else expect(result.status).not.toBe('unknown');
        if (result.status !== 'compliant')
          expect(result.status).toBe(result.requirements.every((r) => r.met) ? 'unknown' : 'non_compliant');
      }),
    );
  });

  it('checks a city without its own rule under the state and says so', () => {
    const result = checkTipCredit(
      { hourly_wage_cents: 900, average_tips_per_hour_cents: 800, city: 'Springfield' },
      rule('US'),
      rule('IL'),
      undefined,
    );
    expect(result.compliant).toBe(true);
    expect(result.notes).toEqual([
      "Springfield, IL: no local minimum-wage record in the rule data; checked under the state's and FLSA's records",
    ]);
  });
});

describe('tipCreditRuleOn', () => {
  it("applies Florida's 2026-09-30 rate from that day: $15.00, $11.98 cash, the $3.02 credit of 2003", () => {
    expect(rule('FL', '2026-09-29')).toMatchObject({ minimum_wage: 14, tipped_minimum_cash_wage: 10.98 });
    expect(rule('FL', '2026-09-30')).toMatchObject({
      minimum_wage: 15,
      tipped_minimum_cash_wage: 11.98,
      max_tip_credit: 3.02,
    });
    // $11.00 an hour in cash met the cash wage on the 29th and no longer does on the 30th.
    const at = (date: string) =>
      checkTipCredit({ hourly_wage_cents: 1100, average_tips_per_hour_cents: 600 }, rule('US', date), rule('FL', date));
    expect(at('2026-09-29').compliant).toBe(true);
    expect(at('2026-09-30').compliant).toBe(false);
  });

  it("applies DC's $10.00 tipped wage until 2026-06-30 and 56% of the minimum ($10.30) from 2026-07-01", () => {
    expect(rule('DC', '2026-06-30')).toMatchObject({ minimum_wage: 17.95, tipped_minimum_cash_wage: 10 });
    expect(rule('DC', '2026-07-01')).toMatchObject({ minimum_wage: 18.4, tipped_minimum_cash_wage: 10.3 });
  });

  it('has no rule for a state before its first version', () => {
    expect(tipCreditRuleOn(tipCreditRules, 'FL', '2025-09-29')).toBeUndefined();
    expect(tipCreditRuleOn(tipCreditRules, 'ZZ', '2026-11-21')).toBeUndefined();
  });
});

describe('tipCreditRulesAt: regional and local records cascade as jurisdictions do', () => {
  const entry = (place: Partial<TipCreditRule>, minimum: number): TipCreditRule => ({
    state: 'XX',
    minimum_wage: minimum,
    tipped_minimum_cash_wage: minimum,
    max_tip_credit: 0,
    tip_credit_allowed: false,
    notes: '',
    effective_date: '2026-01-01',
    source: [],
    source_kind: 'statute',
    confidence: 'high',
    last_verified: '2026-11-29',
    ...place,
  });
  const indexed = (entries: TipCreditRule[]) => {
    const map = new Map<string, TipCreditRule[]>();
    for (const e of entries) for (const key of tipCreditKeysOf(e)) map.set(key, [...(map.get(key) ?? []), e]);
    return map;
  };

  it('picks the region of the county for the state law, and the city before the county for local law, whatever else exists', () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        (region, otherRegion, county, city, placeHasCity) => {
          const statewide = entry({}, 10);
          const regional = entry({ region: 'Downstate', counties: ['Kings', 'Queens'] }, 11);
          const elsewhere = entry({ region: 'Upstate north', counties: ['Albany'] }, 12);
          const countyLaw = entry({ county: 'Kings' }, 13);
          const cityLaw = entry({ city: 'Brooklyn' }, 14);
          const rules = indexed([
            statewide,
            ...(region ? [regional] : []),
            ...(otherRegion ? [elsewhere] : []),
            ...(county ? [countyLaw] : []),
            ...(city ? [cityLaw] : []),
          ]);
          // Names arrive as callers type them.
          const at = tipCreditRulesAt(
            rules,
            { state: 'XX', county: 'kings county', ...(placeHasCity ? { city: 'BROOKLYN' } : {}) },
            '2026-11-21',
          );
          expect(at?.state).toBe(region ? regional : statewide);
          expect(at?.local).toBe(city && placeHasCity ? cityLaw : county ? countyLaw : undefined);
        },
      ),
    );
  });

  it('applies only the statewide record without a county or city, and nothing for a state without one', () => {
    const rules = indexed([entry({}, 10), entry({ region: 'Downstate', counties: ['Kings'] }, 11)]);
    expect(tipCreditRulesAt(rules, { state: 'XX' }, '2026-11-21')).toEqual({
      state: entry({}, 10),
      regions: [entry({ region: 'Downstate', counties: ['Kings'] }, 11)],
    });
    expect(tipCreditRulesAt(rules, { state: 'XX', county: 'Albany' }, '2026-11-21')).toEqual({ state: entry({}, 10) });
    expect(tipCreditRulesAt(rules, { state: 'YY', county: 'Kings' }, '2026-11-21')).toBeUndefined();
  });

  it("checks New York's downstate figures in Kings County and the remainder-of-state figures in Albany County (seeds)", () => {
    const downstate = tipCreditRulesAt(
      tipCreditRules,
      { state: 'NY', county: 'Kings', city: 'Brooklyn' },
      '2026-11-21',
    )!;
    const upstate = tipCreditRulesAt(tipCreditRules, { state: 'NY', county: 'Albany', city: 'Albany' }, '2026-11-21')!;
    expect(downstate.state).toMatchObject({
      region: 'New York City, Long Island and Westchester',
      minimum_wage: 17,
      tipped_minimum_cash_wage: null,
    });
    expect(upstate.state).toMatchObject({ state: 'NY', minimum_wage: 16, tipped_minimum_cash_wage: null });
    expect(upstate.state.region).toBeUndefined();
    // $16.50 in cash: the rest of the state's $16.00 is met whatever its tipped cash wage; downstate's $17.00 is not.
    const wage = { hourly_wage_cents: 1650, average_tips_per_hour_cents: 0 };
    expect(checkTipCredit(wage, rule('US'), upstate.state).status).toBe('compliant');
    expect(failed(checkTipCredit(wage, rule('US'), downstate.state))).toEqual([['STATE_MINIMUM_WAGE', 1700, 1650]]);
    // $11.00 cash and $6.00 tips: the 2026 tipped cash wage is not recorded, so unknown in both.
    const tipped = { hourly_wage_cents: 1100, average_tips_per_hour_cents: 600 };
    expect(checkTipCredit(tipped, rule('US'), upstate.state).reason).toBe('STATE_MINIMUM_UNKNOWN');
  });
});

describe('checkTipCreditAt: a state with regions and no county named', () => {
  const region = (name: string, minimum: number): TipCreditRule => ({
    ...rule('TX'),
    state: 'XX',
    minimum_wage: minimum,
    tipped_minimum_cash_wage: minimum,
    tip_credit_allowed: false,
    ...(name ? { region: name, counties: [name] } : {}),
  });
  const statewide = region('', 10);
  const regions = [region('Downstate', 12), region('Upland', 9)];
  const at = (wage: number) =>
    checkTipCreditAt(
      { hourly_wage_cents: wage, average_tips_per_hour_cents: 0 },
      { federal: rule('US'), state: statewide, regions },
    );

  it('is compliant only at the highest region, non_compliant under the lowest, else unknown (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 725, max: 1500 }), (wage) => {
        const verdict = at(wage);
        const expected = wage >= 1200 ? 'compliant' : wage < 900 ? 'non_compliant' : 'unknown';
        expect(verdict.status).toBe(expected);
        expect(verdict.reason).toBe(expected === 'unknown' ? 'REGION_AMBIGUOUS' : null);
        expect(verdict.requirements.every((r) => r.met)).toBe(expected !== 'non_compliant');
      }),
    );
  });

  it('names the record it answers under, and no surer than its least sure record', () => {
    expect(at(1200).rules.state.region).toBe('Downstate');
    expect(at(800).rules.state.region).toBe('Upland');
    const unsure = checkTipCreditAt(
      { hourly_wage_cents: 1200, average_tips_per_hour_cents: 0 },
      { federal: rule('US'), state: { ...statewide, confidence: 'low' } },
    );
    expect(unsure.confidence).toBe('low');
    expect(lowestConfidence([rule('US'), rule('TX')])).toBe('medium');
  });

  it("answers New York without a county (seeds): unknown unless the wage meets downstate's minimum in cash", () => {
    const ny = (wage: number, tips: number) => {
      const rules = tipCreditRulesAt(tipCreditRules, { state: 'NY' }, '2026-11-29')!;
      return checkTipCreditAt(
        { hourly_wage_cents: wage, average_tips_per_hour_cents: tips },
        { federal: rule('US', '2026-11-29'), ...rules },
      );
    };
    expect(ny(1650, 500)).toMatchObject({ status: 'unknown', compliant: null, reason: 'REGION_AMBIGUOUS' });
    expect(ny(1700, 0)).toMatchObject({ status: 'compliant', compliant: true });
    expect(ny(1700, 0).rules.state.region).toBe('New York City, Long Island and Westchester');
    expect(ny(1000, 500).status).toBe('non_compliant');
  });
});

describe("a county's own law, checked beside its state's (seeds)", () => {
  it("holds a Montgomery County (MD) employer to the county's minimum as well as Maryland's", () => {
    const at = tipCreditRulesAt(
      tipCreditRules,
      { state: 'MD', county: 'Montgomery', city: 'Rockville' },
      '2026-01-15',
    )!;
    expect(at.state).toMatchObject({ state: 'MD', minimum_wage: 15 });
    expect(at.local).toMatchObject({ county: 'Montgomery', minimum_wage: 17.65, tipped_minimum_cash_wage: 4 });
    // $4.00 cash and $12.00 tips: Maryland's $15.00 is met, the county's $17.65 is not.
    const result = checkTipCredit(
      { hourly_wage_cents: 400, average_tips_per_hour_cents: 1200 },
      rule('US', '2026-01-15'),
      at.state,
      at.local,
    );
    expect(failed(result)).toEqual([['LOCAL_MINIMUM_WAGE', 1765, 1600]]);
    expect(result.requirements.find((r) => r.requirement === 'LOCAL_MINIMUM_WAGE')?.jurisdiction).toBe(
      'Montgomery, MD',
    );
  });
});
