/** An override of a sale's cash total, within docs/design.md's bounds ("Overrides are bounded"). */

import { OverridePolicyViolationError } from './transaction.errors';
import type { OverrideAppliedData, OverrideReason, TransactionRecordedData } from './transaction.events';
import type { ApplyOverride, SaleChangeBounds } from './sale.commands';
import type { SaleState } from './sale-state';

/** What the cash total answers for: the cash part of a split tender, else the whole price. */
export function cashPrice({ is_split_tender: isSplitTender, calculation }: TransactionRecordedData): number {
  return isSplitTender ? calculation.cash_portion_cents : calculation.ledger_total_cents;
}

/**
 * A goodwill override (customer-request, manager-discretion) stays within the tolerance of the
 * price either way; a correction (pricing-error, system-error) may lower the total to 0 but raise
 * it no further than the tolerance: an override moves the cash total, not the price.
 */
function overrideBounds(
  reason: OverrideReason,
  price: number,
  { tolerance_cents: toleranceCents }: SaleChangeBounds,
): [number, number] {
  const goodwill = reason === 'customer-request' || reason === 'manager-discretion';
  return [goodwill ? Math.max(0, price - toleranceCents) : 0, price + toleranceCents];
}

export function applyOverride(
  { override, override_id: overrideId, now, bounds }: ApplyOverride,
  { sale, settlement }: SaleState,
): OverrideAppliedData {
  const calculated = sale.calculation;
  const [low, high] = overrideBounds(override.reason, cashPrice(sale), bounds);
  if (override.new_cash_total_cents < low || override.new_cash_total_cents > high) {
    throw new OverridePolicyViolationError(override.reason, override.new_cash_total_cents, low, high);
  }
  return {
    override_id: overrideId,
    transaction_id: sale.transaction_id,
    created_at: now,
    employee_id: override.employee_id,
    employee_name: override.employee_name,
    reason: override.reason,
    calculated_cash_total_cents: calculated.cash_total_cents,
    previous_cash_total_cents: settlement.cash_total_cents,
    new_cash_total_cents: override.new_cash_total_cents,
    rounding_delta_cents: calculated.rounding_delta_cents + override.new_cash_total_cents - calculated.cash_total_cents,
  };
}
