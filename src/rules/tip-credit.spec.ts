import fc from 'fast-check';
import { loadSeeds } from '../jurisdiction/seed-loader';
import { tipCreditKey, tipCreditKeysOf, type TipCreditRule } from './seed-data';
import { checkTipCredit, tipCreditRuleOn, tipCreditRulesAt } from './tip-credit';

const { tipCreditRules } = loadSeeds();
const rule = (state: string, date = '2026-11-21') => tipCreditRuleOn(tipCreditRules, state, date)!;
const check = (state: string, hourly_wage_cents: number, average_tips_per_hour_cents: number) =>
  checkTipCredit({ hourly_wage_cents, average_tips_per_hour_cents }, rule('US'), rule(state));
const failed = (result: ReturnType<typeof check>) =>
  result.requirements
    .filter((r) => !r.met)
    .map(({ requirement, required_cents, actual_cents }) => [requirement, required_cents, actual_cents]);

describe('checkTipCredit', () => {
  it('passes the FLSA minimum in a state that follows the federal defaults', () => {
    const result = check('TX', 213, 512);
    expect(result).toEqual({ compliant: true, requirements: expect.any(Array), notes: [] });
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

  it('checks only what the seed data knows, and says what it could not check', () => {
    const samoa = check('AS', 213, 600);
    expect(samoa.requirements.map((r) => r.jurisdiction)).toEqual(['US', 'US']);
    expect(samoa.notes).toEqual([expect.stringContaining('AS'), expect.stringContaining('AS')]);
    const marianas = check('MP', 213, 400);
    expect(failed(marianas)).toEqual([
      ['FLSA_MINIMUM_WAGE', 725, 613],
      ['STATE_MINIMUM_WAGE', 725, 613],
    ]);
    expect(marianas.notes).toEqual([expect.stringContaining('tip credit')]);
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
  const inChicago = (date: string, hourly_wage_cents: number, average_tips_per_hour_cents: number) =>
    checkTipCredit(
      { hourly_wage_cents, average_tips_per_hour_cents, city: 'Chicago' },
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

  it("says what it could not check where the city's figures are not in the seed data, and that the credit ends in 2028", () => {
    const result = inChicago('2026-11-24', 1000, 800);
    expect(result.requirements.map((r) => r.requirement)).toEqual([
      'FLSA_CASH_WAGE',
      'FLSA_MINIMUM_WAGE',
      'STATE_CASH_WAGE',
      'STATE_MINIMUM_WAGE',
    ]);
    expect(result.notes).toEqual([
      expect.stringMatching(/^Chicago, IL: no Chicago, IL minimum cash wage/),
      expect.stringMatching(/^Chicago, IL: no Chicago, IL minimum wage, cash wage plus tips/),
    ]);
    expect(chicago('2028-07-01')).toMatchObject({ tip_credit_allowed: false, max_tip_credit: 0 });
    expect(inChicago('2028-07-01', 1000, 800).notes).toEqual([
      expect.stringMatching(/^Chicago, IL: no Chicago, IL minimum wage in cash wage alone/),
    ]);
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
      "Springfield, IL: no local tip credit rule in the seed data; the state's and FLSA's apply",
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
    expect(tipCreditRulesAt(rules, { state: 'XX' }, '2026-11-21')).toEqual({ state: entry({}, 10) });
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
      tipped_minimum_cash_wage: 11.35,
    });
    expect(upstate.state).toMatchObject({ state: 'NY', minimum_wage: 16, tipped_minimum_cash_wage: 10.7 });
    expect(upstate.state.region).toBeUndefined();
    const wage = { hourly_wage_cents: 1100, average_tips_per_hour_cents: 600 };
    expect(checkTipCredit(wage, rule('US'), upstate.state).compliant).toBe(true);
    expect(failed(checkTipCredit(wage, rule('US'), downstate.state))).toEqual([['STATE_CASH_WAGE', 1135, 1100]]);
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
