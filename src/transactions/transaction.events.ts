import type { FraudSignal, RiskLevel } from '../fraud/fraud-score';
import type { ResolvedLocation } from '../jurisdiction/jurisdiction-resolver';
import type { JurisdictionRule } from '../jurisdiction/jurisdiction-rule';
import type { RoundingMode, TenderExemption, TenderType } from '../rounding/rounding-engine';

export const transactionStream = (transactionId: string) => `transaction-${transactionId}`;

/** Events of a `transaction-<id>` stream. A type string, once stored, is never renamed. */
export type TransactionEvent = TransactionRecorded;

export const TRANSACTION_TYPES = ['SALE', 'VOID', 'REFUND'] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

export const COMPLIANCE_STATUSES = ['PASS', 'WARN', 'FAIL'] as const;
export type ComplianceStatus = (typeof COMPLIANCE_STATUSES)[number];

export type KeyEnvironment = 'sandbox' | 'production';

export interface ComplianceReason {
  code: string;
  severity: Exclude<ComplianceStatus, 'PASS'>;
  message: string;
}

export interface TenderLine {
  type: TenderType;
  amount_cents: number;
}

/**
 * Everything the sale was decided on, so that a later reader needs neither the rules then in force nor the history.
 * A type alias, not an interface, so that it is assignable to an event's JSON `data`.
 */
export type TransactionRecordedData = {
  transaction_id: string;
  transaction_type: 'SALE';
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
    mode_source: 'rule' | 'explicit';
    rounding_applied: boolean;
    exemptions: TenderExemption[];
  };
  compliance: { compliance_status: ComplianceStatus; reasons: ComplianceReason[] };
  fraud: { fraud_score: number; risk_level: RiskLevel; signals: FraudSignal[] };
};

export interface TransactionRecorded {
  type: 'TransactionRecorded';
  data: TransactionRecordedData;
}
