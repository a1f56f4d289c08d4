import type { StoredEvent } from '../event-store/event-store.port';
import type { FraudSignal, RiskLevel } from '../fraud/fraud-signals';
import type { ResolvedLocation } from '../jurisdiction/jurisdiction-resolver';
import type { JurisdictionRule } from '../jurisdiction/jurisdiction-rule';
import type { RoundingMode, TenderType } from '../rounding/rounding-engine';
import type {
  ComplianceReason,
  ComplianceStatus,
  KeyEnvironment,
  NormalizationCheck,
  OverrideAppliedData,
  RefundIssuedData,
  TransactionRecordedData,
  TransactionStatus,
  TransactionType,
  TransactionVoidedData,
} from './transaction.events';

export interface TenderView {
  type: TenderType;
  amount_cents: number;
  rounded: boolean;
  /** Why a non-cash tender was left as it is; null for cash. */
  exemption: { citation: string; rule: string } | null;
}

/** An override record, as the sale's detail lists it and `POST /transaction/override` answers it: the event's facts under the record's id. */
export type OverrideView = { id: string } & Omit<OverrideAppliedData, 'override_id'> & { auditHash: string; chain_position: number };

/** VOID and REFUND records: why, and who; a refund adds the amount asked and its normalization check. */
export interface ReversalView {
  void_reason: string;
  voided_by: string;
  refund_amount_cents: number | null;
  normalization: NormalizationCheck | null;
}

/** The transaction as the API shows it: the `transaction` of `POST /transaction` and each item of `GET /transactions`. */
export interface TransactionView {
  id: string;
  type: TransactionType;
  /** A sale's state after its overrides, void and refunds; VOID and REFUND records are `completed`. */
  state: TransactionStatus;
  /** VOID and REFUND records: the sale they reverse. */
  original_transaction_id: string | null;
  merchant_id: string;
  environment: KeyEnvironment;
  store_id: string | null;
  terminal_id: string | null;
  cashier_id: string | null;
  created_at: string;
  calculation: {
    subtotal_cents: number;
    tax_total_cents: number;
    ledger_total_cents: number;
    cash_total_cents: number;
    rounding_delta_cents: number;
    payment_method: TenderType;
    cash_rounding_mode: RoundingMode;
    jurisdiction: string;
    rounding_applied: boolean;
    mode_source: 'rule' | 'explicit';
    is_split_tender: boolean;
    cash_portion_cents: number;
    tenders: TenderView[];
  };
  /** The applied rule as it stood at the time of the sale, with its legislation, source and notes. */
  rule: JurisdictionRule;
  location: ResolvedLocation;
  compliance: { compliance_status: ComplianceStatus; reasons: ComplianceReason[] };
  fraud_score: number;
  risk_level: RiskLevel;
  fraud_signals: FraudSignal[];
  auditHash: string;
  chain_position: number;
  reversal: ReversalView | null;
  /** An overridden sale: its calculation's own cash total and delta; `calculation` holds the ones that settle. */
  original_calculation: { cash_total_cents: number; rounding_delta_cents: number } | null;
  overrides: OverrideView[];
  void_transaction_id: string | null;
  refund_transaction_ids: string[];
  /** A sale: cash handed back by its refunds, and what may still be (0 once voided). */
  refunded_cents: number;
  refundable_cents: number;
}

/** One entry of the hash chain about this transaction: the sale's own, then its overrides, void and refunds. */
export interface HistoryEntry {
  event: string;
  chain_position: number;
  audit_hash: string;
  recorded_at: string;
}

/** `GET /transaction/{id}`: the view plus the transaction's history in the chain. */
export interface TransactionDetail extends TransactionView {
  history: HistoryEntry[];
}

export function historyEntry(entry: StoredEvent): HistoryEntry {
  return { event: entry.type, chain_position: entry.position, audit_hash: entry.hash, recorded_at: entry.recordedAt };
}

export type RecordData = TransactionRecordedData | TransactionVoidedData | RefundIssuedData;

/** Built from the event and its chain entry alone, so the POST response and the read model cannot disagree. */
export function transactionView(data: RecordData, entry: Pick<StoredEvent, 'position' | 'hash'>): TransactionView {
  const { calculation } = data;
  const exemptions = new Map<TenderType, TenderView['exemption']>(
    calculation.exemptions.map(({ tender, citation, rule }) => [tender, { citation, rule }]),
  );
  const tenders = data.tenders.length > 0 ? data.tenders : [{ type: data.payment_method, amount_cents: calculation.ledger_total_cents }];
  return {
    id: data.transaction_id,
    type: data.transaction_type,
    state: 'completed',
    original_transaction_id: data.transaction_type === 'SALE' ? null : data.original_transaction_id,
    merchant_id: data.merchant_id,
    environment: data.environment,
    store_id: data.store_id,
    terminal_id: data.terminal_id,
    cashier_id: data.cashier_id,
    created_at: data.created_at,
    calculation: {
      subtotal_cents: calculation.subtotal_cents,
      tax_total_cents: calculation.tax_total_cents,
      ledger_total_cents: calculation.ledger_total_cents,
      cash_total_cents: calculation.cash_total_cents,
      rounding_delta_cents: calculation.rounding_delta_cents,
      payment_method: data.payment_method,
      cash_rounding_mode: calculation.cash_rounding_mode,
      jurisdiction: data.rule.jurisdiction_id,
      rounding_applied: calculation.rounding_applied,
      mode_source: calculation.mode_source,
      is_split_tender: data.is_split_tender,
      cash_portion_cents: calculation.cash_portion_cents,
      tenders: tenders.map(({ type, amount_cents }) => ({
        type,
        amount_cents,
        rounded: type === 'cash' && calculation.rounding_applied,
        exemption: exemptions.get(type) ?? null,
      })),
    },
    rule: data.rule,
    location: data.location.resolved,
    compliance: data.compliance,
    fraud_score: data.fraud.fraud_score,
    risk_level: data.fraud.risk_level,
    fraud_signals: data.fraud.signals,
    auditHash: entry.hash,
    chain_position: entry.position,
    reversal: data.transaction_type === 'SALE' ? null : reversalView(data),
    original_calculation: null,
    overrides: [],
    void_transaction_id: null,
    refund_transaction_ids: [],
    refunded_cents: 0,
    refundable_cents: data.transaction_type === 'SALE' ? calculation.cash_total_cents : 0,
  };
}

function reversalView(data: TransactionVoidedData | RefundIssuedData): ReversalView {
  const refund = data.transaction_type === 'REFUND' ? data : undefined;
  return {
    void_reason: data.void_reason,
    voided_by: data.voided_by,
    refund_amount_cents: refund?.refund_amount_cents ?? null,
    normalization: refund?.normalization ?? null,
  };
}

/** The sale once overridden: the new cash total settles it, its own calculation stays readable. */
export function withOverride(sale: TransactionView, data: OverrideAppliedData, entry: Pick<StoredEvent, 'position' | 'hash'>): TransactionView {
  const { cash_total_cents, rounding_delta_cents } = sale.calculation;
  return {
    ...sale,
    state: 'overridden',
    calculation: { ...sale.calculation, cash_total_cents: data.new_cash_total_cents, rounding_delta_cents: data.rounding_delta_cents },
    original_calculation: sale.original_calculation ?? { cash_total_cents, rounding_delta_cents },
    overrides: [...sale.overrides, overrideView(data, entry)],
    refundable_cents: data.new_cash_total_cents,
  };
}

export function overrideView({ override_id, ...override }: OverrideAppliedData, entry: Pick<StoredEvent, 'position' | 'hash'>): OverrideView {
  return { id: override_id, ...override, auditHash: entry.hash, chain_position: entry.position };
}

export function withVoid(sale: TransactionView, data: TransactionVoidedData): TransactionView {
  return { ...sale, state: 'voided', void_transaction_id: data.transaction_id, refundable_cents: 0 };
}

/** A refund's record holds the cash handed back as a negative amount. */
export function withRefund(sale: TransactionView, data: RefundIssuedData): TransactionView {
  const refundable = sale.refundable_cents + data.calculation.cash_total_cents;
  return {
    ...sale,
    state: refundable === 0 ? 'refunded' : 'partially_refunded',
    refund_transaction_ids: [...sale.refund_transaction_ids, data.transaction_id],
    refunded_cents: sale.refunded_cents - data.calculation.cash_total_cents,
    refundable_cents: refundable,
  };
}
