import type { Decider } from '../platform/decider';
import type { EventMetadata } from '../platform/event-store/event-store.port';
import type { JurisdictionRule } from '../rules/jurisdiction-rule';
import type { TipCreditRule } from '../rules/seed-data';

/**
 * An administrator recorded a version of a rule. It applies from its `effective_date` and replaces
 * the version with the same place, rule type, scope and effective date (imported or recorded before).
 */
export interface JurisdictionRuleChanged {
  type: 'JurisdictionRuleChanged';
  data: { rule: JurisdictionRule };
  metadata: EventMetadata;
}

export const JURISDICTION_RULE_CHANGED: JurisdictionRuleChanged['type'] = 'JurisdictionRuleChanged';

/** Where an imported record came from: the seed file's name and the SHA-256 (hex) of the whole file as read. */
export interface SeedOrigin {
  seed_file: string;
  seed_sha256: string;
}

/**
 * A record of seeds/jurisdiction-rules.json entered the log: at the first start, and again whenever
 * the file's record differs from the last one imported for its rule version. Like a change, it
 * replaces the version with the same place, rule type, scope and effective date.
 */
export interface JurisdictionRuleImported {
  type: 'JurisdictionRuleImported';
  data: SeedOrigin & { rule: JurisdictionRule };
  metadata: EventMetadata;
}

export const JURISDICTION_RULE_IMPORTED: JurisdictionRuleImported['type'] = 'JurisdictionRuleImported';

/** A record of seeds/tip-credit-rules.json entered the log, as a rounding rule's does. */
export interface TipWageRuleImported {
  type: 'TipWageRuleImported';
  data: SeedOrigin & { rule: TipCreditRule };
  metadata: EventMetadata;
}

export const TIP_WAGE_RULE_IMPORTED: TipWageRuleImported['type'] = 'TipWageRuleImported';

/** The entries a rounding rule version comes from, in the log's order. */
export const ROUNDING_RULE_EVENT_TYPES = [JURISDICTION_RULE_IMPORTED, JURISDICTION_RULE_CHANGED] as const;

/** One stream per lookup key, so a place's rule history reads back in order. */
export function jurisdictionRuleStream(lookupKey: string): string {
  return `jurisdictionRule-${lookupKey}`;
}

/** One stream per seed file: an import is one append at the revision read, so two processes starting together import once. */
export function ruleSeedStream(seedFile: string): string {
  return `ruleSeed-${seedFile}`;
}

/**
 * Last writer wins: a rule version has no state a concurrent change could break, so the decider
 * records every change it is given.
 */
export const jurisdictionRuleDecider: Decider<
  { rule: JurisdictionRule },
  null,
  Omit<JurisdictionRuleChanged, 'metadata'>
> = {
  initialState: () => null,
  evolve: (state) => state,
  decide: ({ rule }) => [{ type: JURISDICTION_RULE_CHANGED, data: { rule } }],
};
