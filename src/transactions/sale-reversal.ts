/** Voids and refunds: the VOID or REFUND record a command makes of a sale, under the void policy and the refund cap. */

import { centsToDollarsString } from '../rules/money';
import { refundCash } from '../rules/cash-settlement';
import { leastUnroundedToZero, type TenderType } from '../rules/rounding-engine';
import {
  RefundExceedsPaidError,
  RefundRoundsToZeroError,
  VoidPolicyViolationError,
  type PolicyViolation,
} from './transaction.errors';
import type {
  RefundIssuedData,
  TransactionRecord,
  TransactionRecordedData,
  TransactionVoidedData,
} from './transaction.events';
import type { IssueRefund, VoidTransaction } from './sale.commands';
import type { SaleState } from './sale-state';
import { cashPrice } from './sale-override';

/** `0 - x` rather than `-x`: no negative zero, which JSON writes as 0 but a deep equality tells apart. */
const negative = (cents: number) => 0 - cents;

/** A VOID or REFUND record: the sale's place, rule and tenders, with its own id, time and a clean score of its own. */
function reversalOf<T extends 'VOID' | 'REFUND'>(
  sale: TransactionRecordedData,
  type: T,
  transactionId: string,
  now: string,
): TransactionRecord<T> {
  return {
    ...sale,
    transaction_id: transactionId,
    transaction_type: type,
    created_at: now,
    compliance: { compliance_status: 'PASS', reasons: [] },
    fraud: { fraud_score: 0, risk_level: 'NONE', signals: [] },
  };
}

const MINUTE_MS = 60_000;

function voidViolations(
  { now, void: request, policy }: VoidTransaction,
  { sale, settlement }: SaleState,
): PolicyViolation[] {
  const ageMinutes = (Date.parse(now) - Date.parse(sale.created_at)) / MINUTE_MS;
  const violations: PolicyViolation[] = [];
  if (ageMinutes > policy.time_limit_minutes) {
    violations.push({
      policy: 'time_limit',
      why: `the sale is ${Math.floor(ageMinutes)} minutes old; a void is allowed within ${policy.time_limit_minutes} minutes, later refund it`,
    });
  }
  if (settlement.cash_total_cents > policy.amount_threshold_cents) {
    const [total, threshold] = [settlement.cash_total_cents, policy.amount_threshold_cents].map(centsToDollarsString);
    violations.push({
      policy: 'amount_threshold',
      why: `the cash total $${total} is above the $${threshold} a void may cancel`,
    });
  }
  if (request.void_reason === 'customer_changed_mind' && ageMinutes > policy.changed_mind_minutes) {
    violations.push({
      policy: 'reason',
      why: `customer_changed_mind is a void reason within ${policy.changed_mind_minutes} minutes of the sale only; later refund it`,
    });
  }
  // Correcting one's own mistake by cancelling the sale is the classic void abuse: a second employee authorizes it.
  if (request.void_reason === 'employee_error' && sale.cashier_id !== null && request.voided_by === sale.cashier_id) {
    violations.push({
      policy: 'reason',
      why: `an employee_error void must be authorized by another employee than the sale's cashier ${sale.cashier_id}`,
    });
  }
  return violations;
}

/** The mirror of the sale as it settled: every amount negated, so the delta is reversed exactly. */
export function voidSale(command: VoidTransaction, state: SaleState): TransactionVoidedData {
  const violations = voidViolations(command, state);
  if (violations.length > 0) throw new VoidPolicyViolationError(violations);
  const { sale, settlement } = state;
  const calculation = sale.calculation;
  return {
    ...reversalOf(sale, 'VOID', command.transaction_id, command.now),
    tenders: sale.tenders.map((tender) => ({ ...tender, amount_cents: negative(tender.amount_cents) })),
    calculation: {
      ...calculation,
      subtotal_cents: negative(calculation.subtotal_cents),
      tax_total_cents: negative(calculation.tax_total_cents),
      ledger_total_cents: negative(calculation.ledger_total_cents),
      cash_portion_cents: negative(calculation.cash_portion_cents),
      cash_total_cents: negative(settlement.cash_total_cents),
      rounding_delta_cents: negative(settlement.rounding_delta_cents),
      exemptions: calculation.exemptions.map((exemption) => ({
        ...exemption,
        amount_cents: negative(exemption.amount_cents),
      })),
    },
    original_transaction_id: sale.transaction_id,
    void_reason: command.void.void_reason,
    voided_by: command.void.voided_by,
  };
}

/** The tax within the first `ledgerCents` refunded, in proportion: on running totals, so that all refunds add up to the sale's tax exactly. */
function taxWithin(sale: TransactionRecordedData, ledgerCents: number): number {
  const { ledger_total_cents: ledgerTotalCents, tax_total_cents: taxTotalCents } = sale.calculation;
  if (ledgerTotalCents === 0) return 0;
  // BigInt: two amounts of up to 10^11 cents multiply past 2^53.
  return Number((BigInt(ledgerCents) * BigInt(taxTotalCents)) / BigInt(ledgerTotalCents));
}

/**
 * docs/design.md: the refund holds ledger -refund_amount and cash -round(refund_amount) under the sale's
 * mode, and the refund that hands back the rest mirrors what is left exactly, so that the refunds of
 * a sale add up to its amounts. A split tender refunds its cash part only: card and EBT go back
 * through their own networks.
 */
export function refundSale(
  { refund, transaction_id: transactionId, now, bounds }: IssueRefund,
  { sale, settlement, refunded }: SaleState,
): RefundIssuedData {
  const calculation = sale.calculation;
  const asked = refund.refund_amount;
  // Never past the cash settled, nor past the price by more than the tolerance (an unbounded override recorded before the bound).
  const refundable =
    Math.min(settlement.cash_total_cents, cashPrice(sale) + bounds.tolerance_cents) - refunded.cash_total_cents;
  if (asked > refundable) throw new RefundExceedsPaidError(sale.transaction_id, asked, refundable);
  const ledgerLeft = cashPrice(sale) - refunded.ledger_total_cents;
  // A sale recorded before the rule model's version 2 refunded as mirror_original does.
  const policy = sale.rule.refunds ?? 'mirror_original';
  const cashBack = calculation.rounding_applied
    ? refundCash(asked, policy, calculation.cash_rounding_mode, {
        whole_sale: asked === refundable,
        sale_cash_remaining_cents: refundable,
      })
    : { cash_refund_cents: asked, rounding_exemption: calculation.rounding_exemption ?? null };
  const cash = Math.min(cashBack.cash_refund_cents, refundable);
  if (cash === 0)
    throw new RefundRoundsToZeroError(
      asked,
      calculation.cash_rounding_mode,
      leastUnroundedToZero(calculation.cash_rounding_mode),
      refundable,
    );
  const last = cash === refundable;
  // A part takes its amount off the price; only the refund of the rest may take what is left of it, whatever that is.
  if (!last && asked > ledgerLeft) throw new RefundExceedsPaidError(sale.transaction_id, asked, refundable, ledgerLeft);
  const ledger = last ? ledgerLeft : asked;
  const tax = taxWithin(sale, refunded.ledger_total_cents + ledger) - taxWithin(sale, refunded.ledger_total_cents);
  const method: TenderType = calculation.cash_portion_cents > 0 ? 'cash' : sale.payment_method;
  // The record's delta: its cash (-cash) minus its ledger (-ledger).
  const delta = ledger - cash;
  const normalization = {
    passed:
      delta === 0 ||
      settlement.rounding_delta_cents === 0 ||
      Math.sign(delta) !== Math.sign(settlement.rounding_delta_cents),
    original_rounding_delta_cents: settlement.rounding_delta_cents,
    refund_rounding_delta_cents: delta,
  };
  return {
    ...reversalOf(sale, 'REFUND', transactionId, now),
    payment_method: method,
    is_split_tender: false,
    tenders: [],
    calculation: {
      ...calculation,
      subtotal_cents: negative(ledger - tax),
      tax_total_cents: negative(tax),
      ledger_total_cents: negative(ledger),
      cash_portion_cents: method === 'cash' ? negative(ledger) : 0,
      cash_total_cents: negative(cash),
      rounding_delta_cents: delta,
      rounding_applied: method === 'cash' && calculation.rounding_applied,
      cash_tendered_cents: null,
      change_due_cents: null,
      rounding_exemption: cashBack.rounding_exemption,
      exemptions: calculation.exemptions
        .filter((exemption) => exemption.tender === method)
        .map((exemption) => ({ ...exemption, amount_cents: negative(ledger) })),
    },
    compliance: normalization.passed
      ? { compliance_status: 'PASS', reasons: [] }
      : {
          compliance_status: 'WARN',
          reasons: [
            {
              code: 'REFUND_NORMALIZATION_FAILED',
              severity: 'WARN',
              message: `the refund's rounding delta (${normalization.refund_rounding_delta_cents} cents) moves the same way as the sale's (${settlement.rounding_delta_cents} cents): rounding did not give back what it took`,
            },
          ],
        },
    original_transaction_id: sale.transaction_id,
    void_reason: refund.void_reason,
    voided_by: refund.voided_by,
    refund_amount_cents: asked,
    normalization,
  };
}
