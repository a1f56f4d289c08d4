import { centsToDollarsString } from '../../rules/money';
import type { OverrideView, TransactionDetail } from '../../transactions/transaction.response.dto';

export const EXPORT_MODES = ['standard', 'full', 'summary'] as const;
export type ExportMode = (typeof EXPORT_MODES)[number];

/** What a cell holds: `csvCell` writes null as an empty cell and a boolean as true or false. */
export type Cell = string | number | boolean | null;

/** One column of the CSV; its name is the header and means the same in every mode (docs/export.md). */
export interface Column {
  name: string;
  value(t: TransactionDetail): Cell;
}

const column = (name: string, value: (t: TransactionDetail) => Cell): Column => ({ name, value });

/** An amount twice: integer cents, and dollars written from the cents' digits (never a float division). */
const amount = (name: string, cents: (t: TransactionDetail) => number | null | undefined): Column[] => [
  column(`${name}_cents`, (t) => cents(t) ?? null),
  column(`${name}_dollars`, (t) => {
    const value = cents(t);
    return value == null ? null : centsToDollarsString(value);
  }),
];

/** Short lists (ids, codes) in one cell, `;`-separated; the full records go in `_json` columns. */
const list = (name: string, values: (t: TransactionDetail) => readonly string[]): Column =>
  column(name, (t) => values(t).join(';'));
const json = (name: string, value: (t: TransactionDetail) => unknown): Column =>
  column(name, (t) => JSON.stringify(value(t)));

/** The override that settles the sale: the latest. */
const lastOverride = (t: TransactionDetail): OverrideView | undefined => t.overrides.at(-1);

/**
 * Every field of the transaction's detail record (`GET /transaction/{id}`), grouped as a regulator
 * reads them. `full` is all of these in this order; `standard` and `summary` pick by name.
 */
const CATALOG: readonly Column[] = [
  // Identifiers and dates.
  column('transaction_id', (t) => t.id),
  column('transaction_type', (t) => t.type),
  column('transaction_state', (t) => t.state),
  column('merchant_id', (t) => t.merchant_id),
  column('environment', (t) => t.environment),
  column('created_at', (t) => t.created_at),
  column('recorded_at', (t) => t.history[0]?.recorded_at ?? null),
  // Location and jurisdiction.
  column('store_id', (t) => t.store_id),
  column('terminal_id', (t) => t.terminal_id),
  column('zip_code', (t) => t.location.zip),
  column('state_code', (t) => t.location.state),
  column('county', (t) => t.location.county),
  column('city', (t) => t.location.city),
  column('county_fips', (t) => t.location.county_fips),
  column('jurisdiction_id', (t) => t.calculation.jurisdiction),
  column('jurisdiction_level', (t) => t.rule.jurisdiction_level),
  // The rule applied, as it stood at the time of the sale.
  column('rule_lookup_key', (t) => t.rule.lookup_key),
  column('rule_state', (t) => t.rule.state),
  column('rule_county', (t) => t.rule.county),
  column('rule_city', (t) => t.rule.city),
  column('rule_rounding_mode', (t) => t.rule.rounding_mode),
  column('rule_enforcement', (t) => t.rule.enforcement),
  column('rule_status', (t) => t.rule.status),
  column('legislation', (t) => t.rule.legislation),
  column('rule_effective_date', (t) => t.rule.effective_date),
  column('disclosure_required', (t) => t.rule.disclosure_required),
  column('disclosure_text', (t) => t.rule.disclosure_text),
  column('cash_acceptance_law', (t) => t.rule.cash_acceptance_law),
  list('rule_sources', (t) => t.rule.source),
  column('rule_notes', (t) => t.rule.notes),
  column('rule_last_verified', (t) => t.rule.last_verified),
  column('rule_type', (t) => t.rule.rule_type),
  column('rule_scope', (t) => t.rule.scope),
  // Amounts: what settles (an override's cash total and delta once overridden).
  ...amount('subtotal', (t) => t.calculation.subtotal_cents),
  ...amount('tax_total', (t) => t.calculation.tax_total_cents),
  ...amount('ledger_total', (t) => t.calculation.ledger_total_cents),
  ...amount('cash_total', (t) => t.calculation.cash_total_cents),
  ...amount('rounding_delta', (t) => t.calculation.rounding_delta_cents),
  // Rounding.
  column('cash_rounding_mode', (t) => t.calculation.cash_rounding_mode),
  column('mode_source', (t) => t.calculation.mode_source),
  column('rounding_applied', (t) => t.calculation.rounding_applied),
  column('rule_version', (t) => t.calculation.rule_version),
  column('rounding_exemption', (t) => t.calculation.rounding_exemption),
  ...amount('cash_tendered', (t) => t.calculation.cash_tendered_cents),
  ...amount('change_due', (t) => t.calculation.change_due_cents),
  // Tender.
  column('payment_method', (t) => t.calculation.payment_method),
  column('is_split_tender', (t) => t.calculation.is_split_tender),
  ...amount('cash_portion', (t) => t.calculation.cash_portion_cents),
  json('tenders_json', (t) => t.calculation.tenders),
  // Compliance and fraud.
  column('compliance_status', (t) => t.compliance.compliance_status),
  list('compliance_reasons', (t) => t.compliance.reasons.map((reason) => reason.code)),
  json('compliance_reasons_json', (t) => t.compliance.reasons),
  column('fraud_score', (t) => t.fraud_score),
  column('risk_level', (t) => t.risk_level),
  list('fraud_signals', (t) => t.fraud_signals.map((signal) => signal.code)),
  json('fraud_signals_json', (t) => t.fraud_signals),
  // Links between a sale and its overrides, void and refunds.
  column('original_transaction_id', (t) => t.original_transaction_id),
  column('void_transaction_id', (t) => t.void_transaction_id),
  list('refund_transaction_ids', (t) => t.refund_transaction_ids),
  column('override_count', (t) => t.overrides.length),
  column('last_override_id', (t) => lastOverride(t)?.id ?? null),
  json('overrides_json', (t) => t.overrides),
  // What the rule gave before any override: the calculation itself when there was none.
  ...amount('calculated_cash_total', (t) => (t.original_calculation ?? t.calculation).cash_total_cents),
  ...amount('calculated_rounding_delta', (t) => (t.original_calculation ?? t.calculation).rounding_delta_cents),
  ...amount('refunded', (t) => t.refunded_cents),
  ...amount('refundable', (t) => t.refundable_cents),
  ...amount('refund_amount', (t) => t.reversal?.refund_amount_cents),
  column('normalization_passed', (t) => t.reversal?.normalization?.passed ?? null),
  column('normalization_original_delta_cents', (t) => t.reversal?.normalization?.original_rounding_delta_cents ?? null),
  column('normalization_refund_delta_cents', (t) => t.reversal?.normalization?.refund_rounding_delta_cents ?? null),
  // The hash chain.
  column('audit_hash', (t) => t.auditHash),
  column('chain_position', (t) => t.chain_position),
  json('history_json', (t) => t.history),
  // Employee attribution.
  column('cashier_id', (t) => t.cashier_id),
  column('override_employee_id', (t) => lastOverride(t)?.employee_id ?? null),
  column('override_employee_name', (t) => lastOverride(t)?.employee_name ?? null),
  column('override_reason', (t) => lastOverride(t)?.reason ?? null),
  column('reversal_employee_id', (t) => t.reversal?.voided_by ?? null),
  column('reversal_reason', (t) => t.reversal?.void_reason ?? null),
];

const BY_NAME = new Map(CATALOG.map((c) => [c.name, c]));

/** A column of the catalog by its header name. */
export const columnNamed = (name: string): Column | undefined => BY_NAME.get(name);

function pick(names: readonly string[]): readonly Column[] {
  return names.map((name) => {
    const found = BY_NAME.get(name);
    if (!found) throw new Error(`export column ${name} is not in the catalog`);
    return found;
  });
}

/** The spec's 53 fields for regulators; docs/export.md says why each is there. */
const STANDARD = pick([
  'transaction_id',
  'transaction_type',
  'transaction_state',
  'merchant_id',
  'environment',
  'created_at',
  'store_id',
  'terminal_id',
  'zip_code',
  'state_code',
  'county',
  'city',
  'jurisdiction_id',
  'jurisdiction_level',
  'rule_rounding_mode',
  'rule_enforcement',
  'legislation',
  'rule_effective_date',
  'disclosure_required',
  'subtotal_cents',
  'subtotal_dollars',
  'tax_total_cents',
  'tax_total_dollars',
  'ledger_total_cents',
  'ledger_total_dollars',
  'cash_total_cents',
  'cash_total_dollars',
  'rounding_delta_cents',
  'rounding_delta_dollars',
  'cash_rounding_mode',
  'rounding_applied',
  'payment_method',
  'is_split_tender',
  'cash_portion_cents',
  'compliance_status',
  'compliance_reasons',
  'fraud_score',
  'risk_level',
  'fraud_signals',
  'original_transaction_id',
  'void_transaction_id',
  'refund_transaction_ids',
  'last_override_id',
  'calculated_cash_total_cents',
  'normalization_passed',
  'audit_hash',
  'chain_position',
  'cashier_id',
  'override_employee_id',
  'override_employee_name',
  'override_reason',
  'reversal_employee_id',
  'reversal_reason',
]);

const SUMMARY = pick([
  'transaction_id',
  'transaction_type',
  'transaction_state',
  'merchant_id',
  'created_at',
  'store_id',
  'jurisdiction_id',
  'ledger_total_cents',
  'ledger_total_dollars',
  'cash_total_cents',
  'cash_total_dollars',
  'rounding_delta_cents',
  'rounding_delta_dollars',
  'payment_method',
  'compliance_status',
  'fraud_score',
  'risk_level',
  'audit_hash',
]);

export const EXPORT_COLUMNS: Readonly<Record<ExportMode, readonly Column[]>> = {
  standard: STANDARD,
  full: CATALOG,
  summary: SUMMARY,
};
