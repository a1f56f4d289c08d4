import { CONFIDENCES, type Confidence } from './jurisdiction-rule';
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

/** A check's verdict: `unknown` when the rule data cannot settle it (`compliant` is then null). */
export const TIP_CREDIT_STATUSES = ['compliant', 'non_compliant', 'unknown'] as const;
export type TipCreditStatus = (typeof TIP_CREDIT_STATUSES)[number];

/**
 * Why a check is unknown; a code once stored is never renamed. `LOCAL_MINIMUM_UNKNOWN`: the place
 * lies in a city or county with its own minimum-wage law whose figures in force are not in the rule
 * data. `STATE_MINIMUM_UNKNOWN`: the same for the state's (or its region's) figures.
 * `REGION_AMBIGUOUS`: the state's figures differ by region and the request names no county, and the
 * wage is not settled the same way in every region.
 */
export const TIP_CREDIT_UNKNOWN_REASONS = [
  'LOCAL_MINIMUM_UNKNOWN',
  'STATE_MINIMUM_UNKNOWN',
  'REGION_AMBIGUOUS',
] as const;
export type TipCreditUnknownReason = (typeof TIP_CREDIT_UNKNOWN_REASONS)[number];

/** What a check could not settle, and where. */
export type TipCreditUnknown = {
  reason: TipCreditUnknownReason;
  /** As on a requirement: a state's code, a region of it, or a county or city with its state. */
  jurisdiction: string;
  description: string;
};

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

/**
 * The records that bind at a place: the state's law (a region's figures where it has them) and the
 * most local ordinance. `regions`: where the state has regional records and no county was named,
 * each region's record in force; the place may lie in any of them or in the rest of the state.
 */
export interface TipCreditRulesAt {
  state: TipCreditRule;
  local?: TipCreditRule;
  regions?: TipCreditRule[];
}

/** The records a check weighs: FLSA's beside the place's. */
export type TipCreditRulesApplied = TipCreditRulesAt & { federal: TipCreditRule };

export interface TipCreditResult {
  status: TipCreditStatus;
  /** Null when `status` is unknown. */
  compliant: boolean | null;
  /** The first of `unknowns`' reasons when `status` is unknown, else null. */
  reason: TipCreditUnknownReason | null;
  requirements: TipCreditRequirement[];
  unknowns: TipCreditUnknown[];
  notes: string[];
}

/** A result with the records it was reached under and the least of their confidences. */
export interface TipCreditVerdict extends TipCreditResult {
  confidence: Confidence;
  rules: TipCreditRulesApplied;
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
 * local law is the city's own, else the county's own. Without a county, a state's regions in force
 * come back as `regions`. Undefined when the state has no record.
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
  const regions = county === undefined ? regionsOn(rules, state, date) : [];
  return { state: regional ?? statewide, ...(local && { local }), ...(regions.length > 0 && { regions }) };
}

/** Each region of `state` with a record in force on `date`, once (a region is filed under each of its counties). */
function regionsOn(rules: SeedData['tipCreditRules'], state: string, date: string): TipCreditRule[] {
  const prefix = tipCreditKey({ state, region_county: '' });
  const regions = new Set<TipCreditRule>();
  for (const key of rules.keys()) {
    const version = key.startsWith(prefix) ? tipCreditRuleOn(rules, key, date) : undefined;
    if (version) regions.add(version);
  }
  return [...regions];
}

/** Seed amounts are dollars per hour written to the cent. */
const cents = (dollars: number) => dollarsToCents(dollars, 'seed');

/**
 * FLSA (cash wage at least the tipped minimum cash wage, cash wage plus tips at
 * least the minimum wage, 29 U.S.C. 203(m)(2)(A)), then the state's rule and a city's own (Chicago
 * phases its tip credit out): where one bans the tip credit the cash wage alone must reach its
 * minimum; otherwise its minimum cash wage, and wage plus tips at least its minimum. Each law binds
 * on its own, so every one is checked. A figure a binding law needs and the rule data lacks is an
 * unknown, never a pass made up: a failed requirement makes the check non_compliant whatever else is
 * unknown, else any unknown makes it unknown.
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
  const unknowns: TipCreditUnknown[] = [];
  const notes: string[] = [];
  const require = (
    rule: TipCreditRule,
    requirement: TipCreditRequirementCode,
    description: string,
    required: number | null,
    actual: number,
    ceiling: number | null = null,
  ) => {
    const jurisdiction = jurisdictionOf(rule);
    // A tipped cash wage is never above the minimum wage: an amount reaching the latter meets the former.
    if (required === null && ceiling !== null && actual >= cents(ceiling)) {
      notes.push(
        `${description}: not in the rule data; the amount reaches the minimum wage, so it is met whatever the figure`,
      );
      return;
    }
    if (required === null) {
      unknowns.push({
        reason: unknownReasonOf(rule),
        jurisdiction,
        description: `${description}: the figure in force is not in the rule data`,
      });
      return;
    }
    const requiredCents = cents(required);
    requirements.push({
      requirement,
      jurisdiction,
      description,
      required_cents: requiredCents,
      actual_cents: actual,
      met: actual >= requiredCents,
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
        require(rule, `${level}_CASH_WAGE`, `${name} minimum cash wage for tipped employees`, rule.tipped_minimum_cash_wage, wage, rule.minimum_wage);
        minimumWithTips();
        break;
      case null:
        minimumWithTips();
        // Without a tip credit the cash wage alone must reach the minimum; a wage that does is lawful either way.
        if (rule.minimum_wage !== null && wage < cents(rule.minimum_wage)) {
          unknowns.push({
            reason: unknownReasonOf(rule),
            jurisdiction: name,
            description: `${name}: whether a tip credit is allowed is not in the rule data, and the cash wage alone is under its minimum wage`,
          });
        }
    }
  };

  require(federal, 'FLSA_CASH_WAGE', 'FLSA minimum cash wage for tipped employees', federal.tipped_minimum_cash_wage, wage);
  require(federal, 'FLSA_MINIMUM_WAGE', 'FLSA minimum wage, cash wage plus tips', federal.minimum_wage, withTips);
  if (state.state !== FEDERAL) checkOwnRule(state, 'STATE');
  if (local) checkOwnRule(local, 'LOCAL');
  else if (facts.city !== undefined || facts.county !== undefined) {
    notes.push(
      `${facts.city ?? facts.county}, ${state.state}: no local minimum-wage record in the rule data; checked under the state's and FLSA's records`,
    );
  }
  return { ...verdictOf(requirements, unknowns), requirements, unknowns, notes };
}

function verdictOf(
  requirements: readonly TipCreditRequirement[],
  unknowns: readonly TipCreditUnknown[],
): Pick<TipCreditResult, 'status' | 'compliant' | 'reason'> {
  if (requirements.some((r) => !r.met)) return { status: 'non_compliant', compliant: false, reason: null };
  if (unknowns.length > 0) return { status: 'unknown', compliant: null, reason: unknowns[0].reason };
  return { status: 'compliant', compliant: true, reason: null };
}

const unknownReasonOf = (rule: TipCreditRule): TipCreditUnknownReason =>
  rule.city !== undefined || rule.county !== undefined ? 'LOCAL_MINIMUM_UNKNOWN' : 'STATE_MINIMUM_UNKNOWN';

/**
 * checkTipCredit at a place. Where the state has regions and no county was named, the check runs
 * under the statewide record and each region's: the same verdict everywhere is the answer (under
 * the strictest record when compliant, the most lenient when not: what fails there fails in every
 * region); otherwise it is unknown (`REGION_AMBIGUOUS`), shown under a record where it does not fail.
 */
export function checkTipCreditAt(facts: TipCreditFacts, rules: TipCreditRulesApplied): TipCreditVerdict {
  const { federal, local, regions = [] } = rules;
  const under = (state: TipCreditRule): TipCreditVerdict => ({
    ...checkTipCredit(facts, federal, state, local),
    confidence: lowestConfidence([federal, state, ...(local ? [local] : [])]),
    rules: { ...rules, state },
  });
  if (regions.length === 0) return under(rules.state);
  const byMinimum = [rules.state, ...regions]
    .map(under)
    .sort((a, b) => (a.rules.state.minimum_wage ?? 0) - (b.rules.state.minimum_wage ?? 0));
  const statuses = new Set(byMinimum.map((v) => v.status));
  if (statuses.size === 1 && statuses.has('compliant')) return byMinimum.at(-1)!;
  if (statuses.size === 1 && statuses.has('non_compliant')) return byMinimum[0];
  const shown = byMinimum.find((v) => v.status !== 'non_compliant')!;
  const verdicts = byMinimum.map((v) => `${jurisdictionOf(v.rules.state)}: ${v.status}`).join('; ');
  const unknowns: TipCreditUnknown[] = [
    {
      reason: 'REGION_AMBIGUOUS',
      jurisdiction: rules.state.state,
      description: `${rules.state.state} sets its figures by region and no county was named; the verdict differs by region (${verdicts}): send the county or ZIP code`,
    },
    ...shown.unknowns,
  ];
  return { ...shown, ...verdictOf(shown.requirements, unknowns), unknowns };
}

/** How sure a verdict can be: no surer than the least sure record it rests on. */
export function lowestConfidence(rules: readonly TipCreditRule[]): Confidence {
  return CONFIDENCES[Math.max(...rules.map((rule) => CONFIDENCES.indexOf(rule.confidence)))];
}

/** `US`, a state's code, a region of it (`NY: New York City, Long Island and Westchester`), or a county or city with its state (`Chicago, IL`). */
export function jurisdictionOf(rule: TipCreditRule): string {
  if (rule.region) return `${rule.state}: ${rule.region}`;
  const local = rule.city ?? rule.county;
  return local ? `${local}, ${rule.state}` : rule.state;
}
