import type { Confidence, JurisdictionRule, SourceKind } from './jurisdiction-rule';
import { foldCityName, foldCountyName } from './name-folding';

/** What the seed files hold, once read and checked (jurisdiction/seed-loader.ts reads them). */

export interface ZipRecord {
  zip: string;
  state: string;
  county: string;
  city: string;
  county_fips: string;
}

/**
 * One entry of seeds/tip-credit-rules.json; `state` 'US' is the FLSA rule. A `region` is part of a
 * state whose own law sets other figures (New York's downstate counties), named and listed by its
 * `counties`; it replaces the state's figures there. A `county` or `city` is a local law (Chicago's,
 * Montgomery County's), checked beside the state's: the record's existence says the place has its own
 * minimum-wage law from `effective_date`, and a figure null there is unknown, never the state's.
 * Amounts are dollars per hour. `source_kind`, `confidence` and `last_verified` say how sure the
 * record is, as a jurisdiction rule's do.
 */
export interface TipCreditRule {
  state: string;
  region?: string;
  counties?: string[];
  county?: string;
  city?: string;
  minimum_wage: number | null;
  tipped_minimum_cash_wage: number | null;
  max_tip_credit: number | null;
  tip_credit_allowed: boolean | null;
  notes: string;
  effective_date: string | null;
  source: string[];
  source_kind: SourceKind;
  confidence: Confidence;
  last_verified: string;
}

export interface SeedData {
  zips: ReadonlyMap<string, ZipRecord>;
  rules: readonly JurisdictionRule[];
  /** Per tipCreditKey (a state, or a city in its state), its versions by effective date (null first); tipCreditRuleOn picks the one in force. */
  tipCreditRules: ReadonlyMap<string, readonly TipCreditRule[]>;
}

/** Where a tip-credit record applies: the whole state, a county of a state's region, a county's or a city's own law. */
export type TipCreditPlace =
  | { state: string }
  | { state: string; region_county: string }
  | { state: string; county: string }
  | { state: string; city: string };

/** The key of a place's tip credit versions; names match as jurisdictions' do (name-folding.ts). */
export function tipCreditKey(place: TipCreditPlace): string {
  if ('region_county' in place) return `${place.state}/region/${foldCountyName(place.region_county)}`;
  if ('county' in place) return `${place.state}/county/${foldCountyName(place.county)}`;
  if ('city' in place) return `${place.state}/city/${foldCityName(place.city)}`;
  return place.state;
}

/** The keys a record is filed under: a region's under each of its counties. */
export function tipCreditKeysOf(rule: TipCreditRule): string[] {
  if (rule.counties) return rule.counties.map((county) => tipCreditKey({ state: rule.state, region_county: county }));
  if (rule.county) return [tipCreditKey({ state: rule.state, county: rule.county })];
  if (rule.city) return [tipCreditKey({ state: rule.state, city: rule.city })];
  return [rule.state];
}
