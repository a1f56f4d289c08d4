/**
 * What a sale's entry says about the rules it was priced under, and what a verifier checks of it.
 * The platform knows no feature: these are the stored type strings, which are never renamed.
 */

/** A log entry named by another: its position and its hash. */
export interface EntryRef {
  position: number;
  hash: string;
}

/** The entries a sale may name as its rule (`rule_entry`) or its merchant's rounding policy (`policy_entry`). */
export const RULE_ENTRY_TYPES: ReadonlySet<string> = new Set([
  'JurisdictionRuleImported',
  'JurisdictionRuleChanged',
  'TipWageRuleImported',
  'RoundingPolicySet',
]);

/**
 * From the first entry of this type on, the seed rules are in the log and every sale names its rule
 * entry; a sale before it was priced under rules read from files and names none.
 */
export const RULES_IN_LOG_TYPE = 'JurisdictionRuleImported';

/** The entry of a sale: the one that must name its rule once the rules are in the log. */
export const SALE_ENTRY_TYPE = 'TransactionRecorded';

/** The fields of a sale's data that name entries, and what each names. */
export const ENTRY_REFERENCES = [
  { field: 'rule_entry', names: 'rule' },
  { field: 'policy_entry', names: 'rounding policy' },
] as const;

/** `value` as an EntryRef, or undefined when it is not one (absent, or not of that shape). */
export function asEntryRef(value: unknown): EntryRef | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { position, hash } = value as Record<string, unknown>;
  return typeof position === 'number' && typeof hash === 'string' ? { position, hash } : undefined;
}
