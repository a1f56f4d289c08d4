import type { Environment } from '../platform/identity/principal';
import type { FraudSignal, RiskLevel } from '../rules/fraud-signals';
import type { ResolvedLocation } from '../rules/jurisdiction-resolver';
import type { JurisdictionRule } from '../rules/jurisdiction-rule';
import type { RoundingExemption, TenderExemption } from '../rules/cash-settlement';
import type { RoundingMode, TenderType } from '../rules/rounding-engine';
import type { AppliedPolicy } from '../rules/rounding-policy';
import type { EntryRef } from '@crcs/tlog';

export const transactionStream = (transactionId: string) => `transaction-${transactionId}`;

/**
 * Events of a `transaction-<id>` stream, the sale's. Its override, void and refunds are appended
 * to it too, so each is decided against the sale's whole history in one atomic append. A type
 * string, once stored, is never renamed.
 */
export type TransactionEvent = TransactionRecorded | OverrideApplied | TransactionVoided | RefundIssued;
export const TRANSACTION_EVENT_TYPES = [
  'TransactionRecorded',
  'OverrideApplied',
  'TransactionVoided',
  'RefundIssued',
] as const satisfies readonly TransactionEvent['type'][];

export const TRANSACTION_TYPES = ['SALE', 'VOID', 'REFUND'] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

/** Where a sale stands after what was appended to its stream; VOID and REFUND records stay `completed`. */
export const TRANSACTION_STATES = ['completed', 'overridden', 'voided', 'partially_refunded', 'refunded'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATES)[number];

/** The spec's allowed values, one list per request. */
export const OVERRIDE_REASONS = ['customer-request', 'manager-discretion', 'pricing-error', 'system-error'] as const;
export type OverrideReason = (typeof OVERRIDE_REASONS)[number];
export const VOID_REASONS = [
  'customer_changed_mind',
  'pricing_error',
  'duplicate_transaction',
  'employee_error',
  'fraud_suspected',
] as const;
export type VoidReason = (typeof VOID_REASONS)[number];
export const REFUND_REASONS = ['defective_product', 'customer_dissatisfied', 'wrong_item', 'price_adjustment'] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];

export const COMPLIANCE_STATUSES = ['PASS', 'WARN', 'FAIL'] as const;
export type ComplianceStatus = (typeof COMPLIANCE_STATUSES)[number];

/** The environment of the key that recorded the sale (auth's ENVIRONMENTS). */
export type KeyEnvironment = Environment;

export const REASON_SEVERITIES = ['WARN', 'FAIL'] as const satisfies readonly ComplianceStatus[];

/** Where a sale's rounding mode came from: its rule, or the request's explicit `cash_rounding_mode`. */
export const MODE_SOURCES = ['rule', 'explicit', 'merchant_policy'] as const;
export type ModeSource = (typeof MODE_SOURCES)[number];

export interface ComplianceReason {
  code: string;
  severity: (typeof REASON_SEVERITIES)[number];
  message: string;
}

export interface TenderLine {
  type: TenderType;
  amount_cents: number;
}

/**
 * Everything a record (sale, void or refund) was decided on, so that a later reader needs neither
 * the rules then in force nor the history. VOID and REFUND records carry negative amounts.
 * A type alias, not an interface, so that it is assignable to an event's JSON `data`.
 */
export type TransactionRecord<T extends TransactionType> = {
  transaction_id: string;
  transaction_type: T;
  merchant_id: string;
  environment: KeyEnvironment;
  created_at: string;
  store_id: string | null;
  terminal_id: string | null;
  cashier_id: string | null;
  payment_method: TenderType;
  is_split_tender: boolean;
  /** As sent; a single-tender sale has none. */
  tenders: TenderLine[];
  location: {
    requested: { zip_code: string | null; state: string | null; county: string | null; city: string | null };
    resolved: ResolvedLocation;
  };
  /** The rule in force when the sale was made, whatever it says today. */
  rule: JurisdictionRule;
  calculation: {
    subtotal_cents: number;
    tax_total_cents: number;
    ledger_total_cents: number;
    cash_portion_cents: number;
    cash_total_cents: number;
    rounding_delta_cents: number;
    cash_rounding_mode: RoundingMode;
    mode_source: ModeSource;
    rounding_applied: boolean;
    exemptions: TenderExemption[];
    /**
     * Added with the rule model's version 2: a sale recorded before has none of these four (read it
     * as no tender, no change, the rule's lookup key at its effective date, no exemption).
     */
    cash_tendered_cents?: number | null;
    change_due_cents?: number | null;
    rule_version?: string;
    rounding_exemption?: RoundingExemption | null;
    /** Added with the rule model's version 3: a sale recorded before has none (read it as the rule's policy). */
    rounding_policy?: AppliedPolicy;
  };
  compliance: { compliance_status: ComplianceStatus; reasons: ComplianceReason[] };
  fraud: { fraud_score: number; risk_level: RiskLevel; signals: FraudSignal[] };
  /**
   * Added with the rule model's version 4 (a sale's only): the log entry of `rule`, and of the
   * merchant's rounding policy when the merchant has set one. A sale recorded before the seed rules
   * were imported into the log has neither.
   */
  rule_entry?: EntryRef;
  policy_entry?: EntryRef;
  /**
   * A sale's only, added when the transaction list came to follow the log after the append: the log
   * position the merchant's history (`fraud`'s inputs) was read as of. Sales recorded before have none.
   */
  history_position?: number;
};

export type TransactionRecordedData = TransactionRecord<'SALE'>;

export interface TransactionRecorded {
  type: 'TransactionRecorded';
  data: TransactionRecordedData;
}

/** What settles a sale: its calculation's cash total and delta, or those of its latest override. */
export interface Settlement {
  cash_total_cents: number;
  rounding_delta_cents: number;
}

export type OverrideAppliedData = {
  override_id: string;
  /** The sale overridden. */
  transaction_id: string;
  created_at: string;
  employee_id: string;
  /** As sent, never trimmed or normalized. */
  employee_name: string;
  reason: OverrideReason;
  /** The cash total the sale's own calculation gave, whatever overrides came before. */
  calculated_cash_total_cents: number;
  previous_cash_total_cents: number;
  new_cash_total_cents: number;
  /** The settlement's new delta: the calculated one moved by as much as the cash total was. */
  rounding_delta_cents: number;
};

export interface OverrideApplied {
  type: 'OverrideApplied';
  data: OverrideAppliedData;
}

/** The link of a VOID or REFUND record to its sale, with the request's reason and employee verbatim. */
export type Reversal<Reason extends string> = {
  original_transaction_id: string;
  void_reason: Reason;
  voided_by: string;
};

export type TransactionVoidedData = TransactionRecord<'VOID'> & Reversal<VoidReason>;

export interface TransactionVoided {
  type: 'TransactionVoided';
  data: TransactionVoidedData;
}

/** docs/design.md: passes when the refund's delta is 0 or has the opposite sign of the sale's; fails when both move the same way. */
export interface NormalizationCheck {
  passed: boolean;
  original_rounding_delta_cents: number;
  refund_rounding_delta_cents: number;
}

export type RefundIssuedData = TransactionRecord<'REFUND'> &
  Reversal<RefundReason> & {
    /** As asked; the record's cash total is what was handed back. */
    refund_amount_cents: number;
    normalization: NormalizationCheck;
  };

export interface RefundIssued {
  type: 'RefundIssued';
  data: RefundIssuedData;
}
