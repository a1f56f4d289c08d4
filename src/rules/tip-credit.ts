import { dollarsToCents } from './money';
import { tipCreditKey, type SeedData, type TipCreditPlace, type TipCreditRule } from './seed-data';

/** The requirements a tip-credit check can weigh (checkTipCredit below); a code once stored is never renamed. */
export const TIP_CREDIT_REQUIREMENTS = [
  'FLSA_CASH_WAGE',
  'FLSA_MINIMUM_WAGE',
  'STATE_CASH_WAGE_NO_TIP_CREDIT',
  'STATE_CASH_WAGE',
  'STATE_MINIMUM_WAGE',
  'LOCAL_CASH_WAGE_NO_TIP_CREDIT',
  'LOCAL_CASH_WAGE',
  'LOCAL_MINIMUM_WAGE',
] as const;
export type TipCreditRequirementCode = (typeof TIP_CREDIT_REQUIREMENTS)[number];

export type TipCreditRequirement = {
  /** Stable code, e.g. FLSA_CASH_WAGE. */
  requirement: TipCreditRequirementCode;
  /** `US` for FLSA, a state's code, or a city with its state (`Chicago, IL`). */
  jurisdiction: string;
  description: string;
  required_cents: number;
  actual_cents: number;
  met: boolean;
};

/** The FLSA entry of seeds/tip-credit-rules.json. */
export const FEDERAL = 'US';

export interface TipCreditFacts {
  hourly_wage_cents: number;
  average_tips_per_hour_cents: number;
  /** The city and county asked about, whose own rule (if the seed data has one in force) is `local`. */
  city?: string;
  county?: string;
}

/** Where the employee works, as far as the caller said (a ZIP's county and city are looked up before). */
export interface TipPlace {
  state: string;
  county?: string;
  city?: string;
}

/** The records that bind at a place: the state's law (a region's figures where it has them) and the most local ordinance. */
export interface TipCreditRulesAt {
  state: TipCreditRule;
  local?: TipCreditRule;
}

export interface TipCreditResult {
  compliant: boolean;
  requirements: TipCreditRequirement[];
  notes: string[];
}

/**
 * The version of a state's tip credit rule in force on `date` (YYYY-MM-DD): the latest that started
 * on or before it, so a rate dated in the future (Florida's of 2026-09-30) applies from its day.
 */
export function tipCreditRuleOn(
  rules: SeedData['tipCreditRules'],
  state: string,
  date: string,
): TipCreditRule | undefined {
  return (rules.get(state) ?? [])
    .filter((version) => version.effective_date === null || version.effective_date <= date)
    .at(-1);
}

/**
 * The records in force at a place on `date`, most local first, as jurisdictions cascade: the
 * state's law is its region's version where the county lies in one, else the statewide one; the
 * local law is the city's own, else the county's own. Undefined when the state has no record.
 */
export function tipCreditRulesAt(
  rules: SeedData['tipCreditRules'],
  place: TipPlace,
  date: string,
): TipCreditRulesAt | undefined {
  const on = (at: TipCreditPlace) => tipCreditRuleOn(rules, tipCreditKey(at), date);
  const { state, county, city } = place;
  const statewide = on({ state });
  if (!statewide) return undefined;
  const regional = county === undefined ? undefined : on({ state, region_county: county });
  const local =
    (city === undefined ? undefined : on({ state, city })) ??
    (county === undefined ? undefined : on({ state, county }));
  return { state: regional ?? statewide, ...(local && { local }) };
}

/** Seed amounts are dollars per hour written to the cent. */
const cents = (dollars: number) => dollarsToCents(dollars, 'seed');

/**
 * docs/design.md "Tips": FLSA (cash wage at least the tipped minimum cash wage, cash wage plus tips at
 * least the minimum wage, 29 U.S.C. 203(m)(2)(A)), then the state's rule and a city's own (Chicago
 * phases its tip credit out): where one bans the tip credit the cash wage alone must reach its
 * minimum; otherwise its minimum cash wage, and wage plus tips at least its minimum. Each law binds
 * on its own, so every one is checked. A number the seed lacks is a requirement not checked, said
 * in `notes`, never a pass or a fail made up.
 */
export function checkTipCredit(
  facts: TipCreditFacts,
  federal: TipCreditRule,
  state: TipCreditRule,
  local?: TipCreditRule,
): TipCreditResult {
  const wage = facts.hourly_wage_cents;
  const withTips = wage + facts.average_tips_per_hour_cents;
  const requirements: TipCreditRequirement[] = [];
  const notes: string[] = [];
  const require = (
    rule: TipCreditRule,
    requirement: TipCreditRequirementCode,
    description: string,
    required: number | null,
    actual: number,
  ) => {
    const jurisdiction = jurisdictionOf(rule);
    if (required === null) {
      notes.push(`${jurisdiction}: no ${description} in the seed data; not checked`);
      return;
    }
    const required_cents = cents(required);
    requirements.push({
      requirement,
      jurisdiction,
      description,
      required_cents,
      actual_cents: actual,
      met: actual >= required_cents,
    });
  };
  const checkOwnRule = (rule: TipCreditRule, level: 'STATE' | 'LOCAL') => {
    const name = jurisdictionOf(rule);
    const minimumWithTips = () =>
      require(rule, `${level}_MINIMUM_WAGE`, `${name} minimum wage, cash wage plus tips`, rule.minimum_wage, withTips);
    switch (rule.tip_credit_allowed) {
      case false:
        require(rule, `${level}_CASH_WAGE_NO_TIP_CREDIT`, `${name} minimum wage in cash wage alone (no tip credit)`, rule.minimum_wage, wage);
        break;
      case true:
        require(rule, `${level}_CASH_WAGE`, `${name} minimum cash wage for tipped employees`, rule.tipped_minimum_cash_wage, wage);
        minimumWithTips();
        break;
      case null:
        notes.push(
          `${name}: the seed data does not say whether a tip credit is allowed; only wage plus tips is checked`,
        );
        minimumWithTips();
    }
  };

  require(federal, 'FLSA_CASH_WAGE', 'FLSA minimum cash wage for tipped employees', federal.tipped_minimum_cash_wage, wage);
  require(federal, 'FLSA_MINIMUM_WAGE', 'FLSA minimum wage, cash wage plus tips', federal.minimum_wage, withTips);
  if (state.state !== FEDERAL) checkOwnRule(state, 'STATE');
  if (local) checkOwnRule(local, 'LOCAL');
  else if (facts.city !== undefined || facts.county !== undefined) {
    notes.push(
      `${facts.city ?? facts.county}, ${state.state}: no local tip credit rule in the seed data; the state's and FLSA's apply`,
    );
  }
  return { compliant: requirements.every((r) => r.met), requirements, notes };
}

/** `US`, a state's code, a region of it (`NY: New York City, Long Island and Westchester`), or a county or city with its state (`Chicago, IL`). */
export function jurisdictionOf(rule: TipCreditRule): string {
  if (rule.region) return `${rule.state}: ${rule.region}`;
  const local = rule.city ?? rule.county;
  return local ? `${local}, ${rule.state}` : rule.state;
}
