/** A new sale: its tenders checked, its cash rounded by the rule in force, its compliance and fraud score decided. */

import { InvalidFieldError } from '../platform/errors/request.errors';
import { scoreFraud } from '../rules/fraud-score';
import { ruleVersionId } from '../rules/jurisdiction-rule';
import { roundTender } from '../rules/cash-settlement';
import { ROUNDING_MODES, roundCents, type RoundingMode } from '../rules/rounding-engine';
import { isLawfulCashTotal, policyTerms, ruleTerms, type AppliedPolicy } from '../rules/rounding-policy';
import type { CashTerms } from '../rules/cash-settlement';
import type { TenderLine, TransactionRecordedData } from './transaction.events';
import type { RecordTransaction } from './sale.commands';
import type { RecordTransactionRequest } from './record-transaction/record-transaction.request.dto';
import { complianceReasons, statusOf } from './sale-compliance';

/** The spec leaves the split-tender fields open; these are the combinations that cannot be recorded truthfully. */
function checkTenders(sale: RecordTransactionRequest): TenderLine[] {
  const tenders = sale.tenders ?? [];
  if (sale.is_split_tender === true && tenders.length < 2) {
    throw new InvalidFieldError('tenders', 'a split tender needs at least two tenders');
  }
  if (sale.is_split_tender === false && tenders.length > 1) {
    throw new InvalidFieldError('is_split_tender', 'is_split_tender is false but several tenders were sent');
  }
  if (tenders.length > 0 && !tenders.some((tender) => tender.type === sale.payment_method)) {
    throw new InvalidFieldError(
      'payment_method',
      `payment_method ${sale.payment_method} is not one of the tenders sent`,
    );
  }
  return tenders;
}

/** Two modes agree when they round every amount alike; each mode's adjustment repeats every 10 cents. */
function sameArithmetic(a: RoundingMode, b: RoundingMode): boolean {
  return Array.from({ length: 10 }, (_, cents) => cents).every(
    (cents) => roundCents(cents, a) === roundCents(cents, b),
  );
}

/** Modes that round to the nearest 5 cents, so that up and down are equally likely by chance: what fraud bias is measured against. */
export const SYMMETRIC_MODES: readonly RoundingMode[] = ROUNDING_MODES.filter((mode) =>
  sameArithmetic(mode, 'symmetrical_rounding'),
);

/**
 * The terms a sale is rounded under: an explicit mode (for testing) before the merchant's policy,
 * the policy only as far as the law allows it (rules/rounding-policy.ts).
 */
function saleTerms(command: RecordTransaction): { terms: CashTerms; policy: AppliedPolicy } {
  const { rule } = command.jurisdiction;
  const explicit = command.sale.cash_rounding_mode;
  if (explicit === undefined) return policyTerms(rule, command.rounding_policy);
  const requested = command.rounding_policy;
  const reason =
    requested === 'rule' ? null : `cash_rounding_mode ${explicit} was sent; it comes before the merchant's policy`;
  return { terms: ruleTerms(rule, explicit), policy: { requested, applied: 'rule', reason } };
}

export function recordSale(command: RecordTransaction): TransactionRecordedData {
  const { sale, jurisdiction, environment } = command;
  const { rule } = jurisdiction;
  const tenders = checkTenders(sale);
  const explicit = sale.cash_rounding_mode;
  const { terms, policy } = saleTerms(command);
  const mode = terms.mode;
  const roundUnder = (cashTerms: CashTerms) =>
    roundTender({
      payment_method: sale.payment_method,
      tenders,
      subtotal_cents: sale.subtotal_cents,
      tax_total_cents: sale.tax_total_cents,
      terms: cashTerms,
      cash_tendered_cents: sale.cash_tendered_cents,
    });
  const calculation = roundUnder(terms);
  // A mandatory rule accepts every lawful result (either neighbour, where the law lets the retailer choose), nothing else.
  const contradicts =
    explicit !== undefined &&
    rule.enforcement === 'mandatory' &&
    !isLawfulCashTotal(
      rule,
      calculation.cash_portion_cents,
      calculation.cash_portion_cents + calculation.rounding_delta_cents,
      sale.cash_tendered_cents,
    );
  const warningCodes = new Set(jurisdiction.warnings.map((warning) => warning.code));

  const fraud = scoreFraud(
    {
      cash_portion_cents: calculation.cash_portion_cents,
      rounding_delta_cents: calculation.rounding_delta_cents,
      symmetric_mode: SYMMETRIC_MODES.includes(mode),
      contradicts_mandatory_rule: contradicts,
      explicit_mode_gain_cents:
        explicit === undefined ? 0 : calculation.cash_total_cents - roundUnder(ruleTerms(rule)).cash_total_cents,
      zip_state_mismatch: warningCodes.has('STATE_ZIP_MISMATCH'),
      unverified_jurisdiction: warningCodes.has('UNKNOWN_ZIP_FALLBACK') || warningCodes.has('NO_LOCATION_FALLBACK'),
    },
    command.history,
  );
  const reasons = complianceReasons({
    explicit,
    contradicts,
    environment,
    rule,
    jurisdiction,
    fraud,
    date: command.now.slice(0, 10),
    roundingDeltaCents: calculation.rounding_delta_cents,
  });

  return {
    transaction_id: command.transaction_id,
    transaction_type: 'SALE',
    merchant_id: sale.merchant_id,
    environment,
    created_at: command.now,
    store_id: sale.store_id ?? null,
    terminal_id: sale.terminal_id ?? null,
    cashier_id: sale.cashier_id ?? null,
    payment_method: sale.payment_method,
    is_split_tender: tenders.length > 1,
    tenders,
    location: {
      requested: {
        zip_code: sale.zip_code ?? null,
        state: sale.state ?? null,
        county: sale.county ?? null,
        city: sale.city ?? null,
      },
      resolved: jurisdiction.location,
    },
    rule,
    calculation: {
      subtotal_cents: sale.subtotal_cents,
      tax_total_cents: sale.tax_total_cents,
      ledger_total_cents: calculation.ledger_total_cents,
      cash_portion_cents: calculation.cash_portion_cents,
      cash_total_cents: calculation.cash_total_cents,
      rounding_delta_cents: calculation.rounding_delta_cents,
      cash_rounding_mode: mode,
      mode_source:
        explicit !== undefined ? 'explicit' : policy.applied === 'favor_customer' ? 'merchant_policy' : 'rule',
      rounding_applied: calculation.rounding_applied,
      exemptions: calculation.exemptions ?? [],
      cash_tendered_cents: sale.cash_tendered_cents ?? null,
      change_due_cents: calculation.change_due_cents ?? null,
      rule_version: ruleVersionId(rule),
      rounding_exemption: calculation.rounding_exemption,
      rounding_policy: policy,
    },
    compliance: { compliance_status: statusOf(reasons), reasons },
    fraud,
    rule_entry: command.rule_entry,
    ...(command.policy_entry && { policy_entry: command.policy_entry }),
    history_position: command.history_position,
  };
}
