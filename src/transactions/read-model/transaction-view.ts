/** The fold of a transaction's events into the view the API answers and rm_transactions stores (its schema: ../transaction.response.dto.ts). */

import type { StoredEvent } from '../../platform/event-store/event-store.port';
import { ruleVersionId } from '../../rules/jurisdiction-rule';
import type { TenderType } from '../../rules/rounding-engine';
import type {
  OverrideAppliedData,
  RefundIssuedData,
  TransactionEvent,
  TransactionRecordedData,
  TransactionVoidedData,
} from '../transaction.events';
import { API_PREFIX } from '../../platform/api-prefix';
import type {
  HistoryEntry,
  OverrideView,
  RecordedSaleView,
  ReversalView,
  TenderView,
  TransactionView,
} from '../transaction.response.dto';

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
  const tenders =
    data.tenders.length > 0
      ? data.tenders
      : [{ type: data.payment_method, amount_cents: calculation.ledger_total_cents }];
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
      cash_tendered_cents: calculation.cash_tendered_cents ?? null,
      change_due_cents: calculation.change_due_cents ?? null,
      rule_version: calculation.rule_version ?? ruleVersionId(data.rule),
      rounding_exemption: calculation.rounding_exemption ?? null,
      rounding_policy: calculation.rounding_policy ?? { requested: 'rule', applied: 'rule', reason: null },
      tenders: tenders.map(({ type, amount_cents: amountCents }) => ({
        type,
        amount_cents: amountCents,
        rounded: type === 'cash' && calculation.rounding_applied,
        exemption: exemptions.get(type) ?? null,
      })),
    },
    // A sale recorded before the rule model's version 3 kept a rule without `choice`: the mode decided.
    rule: { ...data.rule, choice: data.rule.choice ?? null },
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
/** `POST /transaction`'s answer: the sale's view with the rule in summary, pointing at the sale for the whole of it. */
export function recordedSaleView(
  data: TransactionRecordedData,
  entry: Pick<StoredEvent, 'position' | 'hash'>,
): RecordedSaleView {
  const { rule } = data;
  const view = transactionView(data, entry);
  return {
    ...view,
    rule: {
      lookup_key: rule.lookup_key,
      version: view.calculation.rule_version,
      rounding_mode: rule.rounding_mode,
      enforcement: rule.enforcement,
      status: rule.status,
      confidence: rule.confidence,
      href: `/${API_PREFIX}/transaction/${data.transaction_id}`,
    },
  };
}

export function withOverride(
  sale: TransactionView,
  data: OverrideAppliedData,
  entry: Pick<StoredEvent, 'position' | 'hash'>,
): TransactionView {
  const { cash_total_cents: cashTotalCents, rounding_delta_cents: roundingDeltaCents } = sale.calculation;
  return {
    ...sale,
    state: 'overridden',
    calculation: {
      ...sale.calculation,
      cash_total_cents: data.new_cash_total_cents,
      rounding_delta_cents: data.rounding_delta_cents,
    },
    original_calculation: sale.original_calculation ?? {
      cash_total_cents: cashTotalCents,
      rounding_delta_cents: roundingDeltaCents,
    },
    overrides: [...sale.overrides, overrideView(data, entry)],
    refundable_cents: data.new_cash_total_cents,
  };
}

export function overrideView(
  { override_id: overrideId, ...override }: OverrideAppliedData,
  entry: Pick<StoredEvent, 'position' | 'hash'>,
): OverrideView {
  return { id: overrideId, ...override, auditHash: entry.hash, chain_position: entry.position };
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

/** A row of rm_transactions: the columns lists filter on (the record as calculated), the API view as `detail`, the entries as `history`. */
export type TransactionRow = {
  id: string;
  merchant_id: string;
  type: string;
  state: string | null;
  jurisdiction_id: string;
  payment_method: string;
  cashier_id: string | null;
  created_at: string;
  subtotal_cents: number;
  tax_total_cents: number;
  ledger_total_cents: number;
  cash_total_cents: number;
  rounding_delta_cents: number;
  cash_rounding_mode: string;
  compliance_status: string;
  fraud_score: number;
  risk_level: string;
  audit_hash: string;
  position: number;
  detail: TransactionView;
  history: HistoryEntry[];
};

function transactionRow(event: StoredEvent): TransactionRow {
  const view = transactionView(event.data as RecordData, event);
  const { calculation } = view;
  return {
    id: view.id,
    merchant_id: view.merchant_id,
    type: view.type,
    state: view.location.state,
    jurisdiction_id: calculation.jurisdiction,
    payment_method: calculation.payment_method,
    cashier_id: view.cashier_id,
    created_at: view.created_at,
    subtotal_cents: calculation.subtotal_cents,
    tax_total_cents: calculation.tax_total_cents,
    ledger_total_cents: calculation.ledger_total_cents,
    cash_total_cents: calculation.cash_total_cents,
    rounding_delta_cents: calculation.rounding_delta_cents,
    cash_rounding_mode: calculation.cash_rounding_mode,
    compliance_status: view.compliance.compliance_status,
    fraud_score: view.fraud_score,
    risk_level: view.risk_level,
    audit_hash: view.auditHash,
    position: view.chain_position,
    detail: view,
    history: [historyEntry(event)],
  };
}

/** What one entry of the log does to rm_transactions: the row it records, and the sale it changes. */
export interface TransactionEffect {
  record?: TransactionRow;
  change?: { saleId: string; apply: (sale: TransactionView) => TransactionView };
}

/** The one reading of the log's transaction events: the projector applies it, and the checks of the read model and the export recompute with it. */
export function effectOf(event: StoredEvent): TransactionEffect {
  const { type, data } = event as unknown as TransactionEvent;
  switch (type) {
    case 'TransactionRecorded':
      return { record: transactionRow(event) };
    case 'OverrideApplied':
      return { change: { saleId: data.transaction_id, apply: (sale) => withOverride(sale, data, event) } };
    case 'TransactionVoided':
      return {
        record: transactionRow(event),
        change: { saleId: data.original_transaction_id, apply: (sale) => withVoid(sale, data) },
      };
    case 'RefundIssued':
      return {
        record: transactionRow(event),
        change: { saleId: data.original_transaction_id, apply: (sale) => withRefund(sale, data) },
      };
    default:
      return {};
  }
}

/**
 * The rows of rm_transactions that `events` (in position order, every event of each sale's stream)
 * make, as the projector writes them: what the read model and the CSV export must say.
 */
export function foldTransactions(events: Iterable<StoredEvent>): Map<string, TransactionRow> {
  const rows = new Map<string, TransactionRow>();
  for (const event of events) {
    const { record, change } = effectOf(event);
    if (record) rows.set(record.id, record);
    const sale = change && rows.get(change.saleId);
    if (sale) {
      sale.detail = change.apply(sale.detail);
      sale.history.push(historyEntry(event));
    }
  }
  return rows;
}
