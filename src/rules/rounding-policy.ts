/**
 * What the law leaves to a merchant, and which cash totals it accepts (docs/design.md, "Rule model,
 * version 3"). Pure: a rule and integer cents in, a decision out.
 */

import { settleCash, TenderTooSmallError, type CashTerms } from './cash-settlement';
import type { JurisdictionRule } from './jurisdiction-rule';
import type { RoundingMode } from './rounding-engine';

export const ROUNDING_POLICIES = ['rule', 'favor_customer'] as const;
/** `rule`: round as the rule says. `favor_customer`: always down to the nickel, wherever the law allows it. */
export type RoundingPolicy = (typeof ROUNDING_POLICIES)[number];

/** What of a rule decides how a sale may be rounded. */
export type RuleLaw = Pick<
  JurisdictionRule,
  | 'jurisdiction_id'
  | 'legislation'
  | 'rounding_mode'
  | 'choice'
  | 'enforcement'
  | 'rounds'
  | 'exact_change_exempt'
  | 'small_total'
>;

/** The policy a sale asked for, the one it got, and why they differ. */
export interface AppliedPolicy {
  requested: RoundingPolicy;
  applied: RoundingPolicy;
  /** Null when the requested policy applied. */
  reason: string | null;
}

export const ruleTerms = (rule: RuleLaw, mode: RoundingMode = rule.rounding_mode): CashTerms => ({
  mode,
  rounds: rule.rounds,
  exact_change_exempt: rule.exact_change_exempt,
  small_total: rule.small_total,
});

/**
 * Rounding down to the nickel is lawful under a rule that lets the retailer choose, a rule that
 * does not bind (permissive, voluntary, none), or one that itself rounds down.
 */
export function allowsRoundingDown(rule: RuleLaw): boolean {
  return (
    rule.choice === 'either_neighbor' ||
    rule.enforcement !== 'mandatory' ||
    rule.rounding_mode === 'mandatory_round_down'
  );
}

/**
 * The terms a sale is settled under for a merchant's policy. `favor_customer` rounds down where the
 * law allows it; a non-binding rule's "1–2¢ become 5¢" is then dropped too, so the customer never
 * pays more than the ledger total. Under a mandatory rule that says otherwise the rule wins.
 */
export function policyTerms(rule: RuleLaw, requested: RoundingPolicy): { terms: CashTerms; policy: AppliedPolicy } {
  if (requested === 'rule') return { terms: ruleTerms(rule), policy: { requested, applied: 'rule', reason: null } };
  if (allowsRoundingDown(rule)) {
    const smallTotal =
      rule.enforcement !== 'mandatory' && rule.small_total?.kind === 'round_up_to_nickel' ? null : rule.small_total;
    return {
      terms: { ...ruleTerms(rule, 'mandatory_round_down'), small_total: smallTotal },
      policy: { requested, applied: 'favor_customer', reason: null },
    };
  }
  const law = rule.legislation ? ` (${rule.legislation})` : '';
  return {
    terms: ruleTerms(rule),
    policy: {
      requested,
      applied: 'rule',
      reason: `the mandatory ${rule.rounding_mode} rule of ${rule.jurisdiction_id}${law} does not let a merchant round down; the rule was applied`,
    },
  };
}

/**
 * Whether the law accepts `cash_total_cents` for a cash amount of `cash_cents` (and the tender,
 * when sent): under `either_neighbor` either neighbouring multiple of 5 cents, else what the rule's
 * own mode gives. Only a mandatory rule forbids the others: the caller asks this of mandatory rules.
 */
export function isLawfulCashTotal(
  rule: RuleLaw,
  cashCents: number,
  cashTotalCents: number,
  cashTenderedCents?: number,
): boolean {
  const modes: RoundingMode[] =
    rule.choice === 'either_neighbor' ? ['mandatory_round_down', 'mandatory_round_up'] : [rule.rounding_mode];
  return modes.some((mode) => {
    try {
      return settleCash(cashCents, ruleTerms(rule, mode), cashTenderedCents).cash_total_cents === cashTotalCents;
    } catch (error) {
      // A neighbour above what was tendered cannot be the lawful result of this sale.
      if (error instanceof TenderTooSmallError) return false;
      throw error;
    }
  });
}
