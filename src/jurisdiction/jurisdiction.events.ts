import type { Decider } from '../platform/decider';
import type { EventMetadata } from '../platform/event-store/event-store.port';
import type { JurisdictionRule } from '../rules/jurisdiction-rule';

/**
 * An administrator recorded a version of a rule. It applies from its `effective_date` and replaces
 * the version with the same place, rule type, scope and effective date (seeded or recorded before).
 */
export interface JurisdictionRuleChanged {
  type: 'JurisdictionRuleChanged';
  data: { rule: JurisdictionRule };
  metadata: EventMetadata;
}

export const JURISDICTION_RULE_CHANGED: JurisdictionRuleChanged['type'] = 'JurisdictionRuleChanged';

/** One stream per lookup key, so a place's rule history reads back in order. */
export function jurisdictionRuleStream(lookupKey: string): string {
  return `jurisdictionRule-${lookupKey}`;
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
