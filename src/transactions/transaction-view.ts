import type { StoredEvent } from '../event-store/event-store.port';
import type { FraudSignal, RiskLevel } from '../fraud/fraud-score';
import type { ResolvedLocation } from '../jurisdiction/jurisdiction-resolver';
import type { JurisdictionRule } from '../jurisdiction/jurisdiction-rule';
import type { RoundingMode, TenderType } from '../rounding/rounding-engine';
import type { ComplianceReason, ComplianceStatus, KeyEnvironment, TransactionRecordedData, TransactionType } from './transaction.events';

export interface TenderView {
  type: TenderType;
  amount_cents: number;
  rounded: boolean;
  /** Why a non-cash tender was left as it is; null for cash. */
  exemption: { citation: string; rule: string } | null;
}

/** The transaction as the API shows it: the `transaction` of `POST /transaction` and each item of `GET /transactions`. */
export interface TransactionView {
  id: string;
  type: TransactionType;
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
}

/** One entry of the hash chain about this transaction; overrides, voids and refunds will add theirs. */
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

/** Built from the event and its chain entry alone, so the POST response and the read model cannot disagree. */
export function transactionView(data: TransactionRecordedData, entry: Pick<StoredEvent, 'position' | 'hash'>): TransactionView {
  const { calculation } = data;
  const exemptions = new Map<TenderType, TenderView['exemption']>(
    calculation.exemptions.map(({ tender, citation, rule }) => [tender, { citation, rule }]),
  );
  const tenders = data.tenders.length > 0 ? data.tenders : [{ type: data.payment_method, amount_cents: calculation.ledger_total_cents }];
  return {
    id: data.transaction_id,
    type: data.transaction_type,
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
  };
}
