import type { JurisdictionRule } from './jurisdiction-rule';

/** What the seed files hold, once read and checked (jurisdiction/seed-loader.ts reads them). */

export interface ZipRecord {
  zip: string;
  state: string;
  county: string;
  city: string;
  county_fips: string;
}

/** One entry of seeds/tip-credit-rules.json; `state` 'US' is the FLSA rule, a `city` a local one. Amounts are dollars per hour. */
export interface TipCreditRule {
  state: string;
  city?: string;
  minimum_wage: number | null;
  tipped_minimum_cash_wage: number | null;
  max_tip_credit: number | null;
  tip_credit_allowed: boolean | null;
  notes: string;
  effective_date: string | null;
  source: string[];
}

export interface SeedData {
  zips: ReadonlyMap<string, ZipRecord>;
  rules: readonly JurisdictionRule[];
  /** Per tipCreditKey (a state, or a city in its state), its versions by effective date (null first); tipCreditRuleOn picks the one in force. */
  tipCreditRules: ReadonlyMap<string, readonly TipCreditRule[]>;
}

/** The key of a state's tip credit versions, or of a city's own rule within its state; a city matches in any case. */
export function tipCreditKey(state: string, city?: string | null): string {
  return city ? `${state}/${city.toLowerCase()}` : state;
}
