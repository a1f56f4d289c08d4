/** The commands of a sale's stream, as the handlers build them for the decider. */

import type { MerchantHistory } from '../rules/fraud-score';
import type { JurisdictionResolution } from '../rules/jurisdiction-resolver';
import type { RoundingMode, TenderType } from '../rules/rounding-engine';
import type { RoundingPolicy } from '../rules/rounding-policy';
import type { KeyEnvironment, OverrideReason, RefundReason, TenderLine, VoidReason } from './transaction.events';
import type { EntryRef } from '@crcs/tlog';

/** A sale as the caller sent it, after its fields have been validated one by one. */
export interface SaleRequest {
  merchant_id: string;
  subtotal_cents: number;
  tax_total_cents: number;
  payment_method: TenderType;
  zip_code?: string;
  state?: string;
  county?: string;
  city?: string;
  cash_rounding_mode?: RoundingMode;
  store_id?: string;
  terminal_id?: string;
  cashier_id?: string;
  is_split_tender?: boolean;
  tenders?: TenderLine[];
  /** The cash handed over for the cash leg. */
  cash_tendered_cents?: number;
}

/** Time, id, rule and history come in through the command: `decide` reads no clock, database or configuration. */
export interface RecordTransaction {
  kind: 'RecordTransaction';
  transaction_id: string;
  /** ISO instant of the sale. */
  now: string;
  environment: KeyEnvironment;
  sale: SaleRequest;
  jurisdiction: JurisdictionResolution;
  history: MerchantHistory;
  /** The log position the history was read as of (the transaction-list read model's checkpoint). */
  history_position: number;
  /** The merchant's rounding policy when the sale was made. */
  rounding_policy: RoundingPolicy;
  /** The log entries of the resolved rule and of the merchant's policy (none: never set), which the sale names. */
  rule_entry: EntryRef;
  policy_entry: EntryRef | null;
}

export interface OverrideRequest {
  transaction_id: string;
  employee_id: string;
  employee_name: string;
  reason: OverrideReason;
  new_cash_total_cents: number;
}

/** docs/design.md "Overrides are bounded"; the tolerance comes from the configuration, through the command. */
export interface SaleChangeBounds {
  /** An override or the sale's refunds reach at most this many cents past its price. */
  tolerance_cents: number;
}

export interface ApplyOverride {
  kind: 'ApplyOverride';
  override_id: string;
  now: string;
  override: OverrideRequest;
  bounds: SaleChangeBounds;
}

/** docs/design.md's void policies; the thresholds come from the configuration, through the command. */
export interface VoidPolicy {
  /** A sale is voided within this many minutes; later, money goes back by refund. */
  time_limit_minutes: number;
  /** A cash total above this is never voided at the register. */
  amount_threshold_cents: number;
  /** `customer_changed_mind` is a void reason only this many minutes after the sale. */
  changed_mind_minutes: number;
}

export interface VoidRequest {
  original_transaction_id: string;
  void_reason: VoidReason;
  voided_by: string;
}

export interface VoidTransaction {
  kind: 'VoidTransaction';
  /** The VOID record's own id. */
  transaction_id: string;
  now: string;
  void: VoidRequest;
  policy: VoidPolicy;
}

export interface RefundRequest {
  original_transaction_id: string;
  refund_amount: number;
  void_reason: RefundReason;
  voided_by: string;
}

export interface IssueRefund {
  kind: 'IssueRefund';
  /** The REFUND record's own id. */
  transaction_id: string;
  now: string;
  refund: RefundRequest;
  bounds: SaleChangeBounds;
}

export type TransactionCommand = RecordTransaction | ApplyOverride | VoidTransaction | IssueRefund;
