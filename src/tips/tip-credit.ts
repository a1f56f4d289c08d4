import { dollarsToCents } from '../common/money';
import type { SeedData, TipCreditRule } from '../jurisdiction/seed-loader';
import type { TipCreditRequirement, TipCreditRequirementCode } from './tip.events';

/** The FLSA entry of seeds/tip-credit-rules.json. */
export const FEDERAL = 'US';

export interface TipCreditFacts {
  hourly_wage_cents: number;
  average_tips_per_hour_cents: number;
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
export function tipCreditRuleOn(rules: SeedData['tipCreditRules'], state: string, date: string): TipCreditRule | undefined {
  return (rules.get(state) ?? []).filter((version) => version.effective_date === null || version.effective_date <= date).at(-1);
}

/** Seed amounts are dollars per hour written to the cent. */
const cents = (dollars: number) => dollarsToCents(dollars, 'seed');

/**
 * DESIGN.md "Tips": FLSA (cash wage at least the tipped minimum cash wage, cash wage plus tips at
 * least the minimum wage, 29 U.S.C. 203(m)(2)(A)) and the state's rule: where it bans the tip credit
 * the cash wage alone must reach the state minimum; otherwise the state's minimum cash wage, and
 * wage plus tips at least the state minimum. A number the seed lacks is a requirement not checked,
 * said in `notes`, never a pass or a fail made up.
 */
export function checkTipCredit(facts: TipCreditFacts, federal: TipCreditRule, state: TipCreditRule): TipCreditResult {
  const wage = facts.hourly_wage_cents;
  const withTips = wage + facts.average_tips_per_hour_cents;
  const requirements: TipCreditRequirement[] = [];
  const notes: string[] = [];
  const require = (rule: TipCreditRule, requirement: TipCreditRequirementCode, description: string, required: number | null, actual: number) => {
    if (required === null) {
      notes.push(`${rule.state}: no ${description} in the seed data; not checked`);
      return;
    }
    const required_cents = cents(required);
    requirements.push({ requirement, jurisdiction: rule.state, description, required_cents, actual_cents: actual, met: actual >= required_cents });
  };

  require(federal, 'FLSA_CASH_WAGE', 'FLSA minimum cash wage for tipped employees', federal.tipped_minimum_cash_wage, wage);
  require(federal, 'FLSA_MINIMUM_WAGE', 'FLSA minimum wage, cash wage plus tips', federal.minimum_wage, withTips);

  if (state.state !== FEDERAL) {
    const minimumWithTips = () =>
      require(state, 'STATE_MINIMUM_WAGE', `${state.state} minimum wage, cash wage plus tips`, state.minimum_wage, withTips);
    switch (state.tip_credit_allowed) {
      case false:
        require(state, 'STATE_CASH_WAGE_NO_TIP_CREDIT', `${state.state} minimum wage in cash wage alone (no tip credit)`, state.minimum_wage, wage);
        break;
      case true:
        require(state, 'STATE_CASH_WAGE', `${state.state} minimum cash wage for tipped employees`, state.tipped_minimum_cash_wage, wage);
        minimumWithTips();
        break;
      case null:
        notes.push(`${state.state}: the seed data does not say whether a tip credit is allowed; only wage plus tips is checked`);
        minimumWithTips();
    }
  }
  return { compliant: requirements.every((r) => r.met), requirements, notes };
}
