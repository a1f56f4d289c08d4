import { InvalidFieldError } from '../platform/errors/request.errors';
import type { Decider } from '../platform/decider';
import { DomainError } from '../platform/errors/domain-error';
import { centsToDollarsString } from '../rules/money';
import { scoreFraud, type MerchantHistory } from '../rules/fraud-score';
import type { FraudAssessment, RiskLevel } from '../rules/fraud-signals';
import type { JurisdictionResolution } from '../rules/jurisdiction-resolver';
import { ruleVersionId, type JurisdictionRule } from '../rules/jurisdiction-rule';
import { refundCash, roundTender } from '../rules/cash-settlement';
import { ROUNDING_MODES, roundCents, type RoundingMode, type TenderType } from '../rules/rounding-engine';
import {
  AlreadyRefundedError,
  AlreadyVoidedError,
  OverridePolicyViolationError,
  RefundExceedsPaidError,
  TransactionNotFoundError,
  VoidPolicyViolationError,
  type PolicyViolation,
} from './transaction.errors';
import type {
  ComplianceReason,
  ComplianceStatus,
  KeyEnvironment,
  OverrideAppliedData,
  OverrideReason,
  RefundIssuedData,
  RefundReason,
  Settlement,
  TenderLine,
  TransactionEvent,
  TransactionRecord,
  TransactionRecordedData,
  TransactionStatus,
  TransactionVoidedData,
  VoidReason,
} from './transaction.events';

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
}

export interface OverrideRequest {
  transaction_id: string;
  employee_id: string;
  employee_name: string;
  reason: OverrideReason;
  new_cash_total_cents: number;
}

/** DESIGN.md "Overrides are bounded"; the tolerance comes from the configuration, through the command. */
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

/** DESIGN.md's void policies; the thresholds come from the configuration, through the command. */
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

/** A recorded sale: its settlement (what its latest override made it) and what its refunds handed back so far. */
export interface SaleState {
  status: TransactionStatus;
  sale: TransactionRecordedData;
  settlement: Settlement;
  refunded: { ledger_total_cents: number; cash_total_cents: number };
}

export type TransactionState = { status: 'none' } | SaleState;

export const transactionDecider: Decider<TransactionCommand, TransactionState, TransactionEvent> = {
  initialState: () => ({ status: 'none' }),

  evolve(state, event) {
    if (event.type === 'TransactionRecorded') {
      const { cash_total_cents, rounding_delta_cents } = event.data.calculation;
      return { status: 'completed', sale: event.data, settlement: { cash_total_cents, rounding_delta_cents }, refunded: { ledger_total_cents: 0, cash_total_cents: 0 } };
    }
    if (state.status === 'none') return state;
    switch (event.type) {
      case 'OverrideApplied': {
        const { new_cash_total_cents, rounding_delta_cents } = event.data;
        return { ...state, status: 'overridden', settlement: { cash_total_cents: new_cash_total_cents, rounding_delta_cents } };
      }
      case 'TransactionVoided':
        return { ...state, status: 'voided' };
      case 'RefundIssued': {
        const refunded = {
          ledger_total_cents: state.refunded.ledger_total_cents - event.data.calculation.ledger_total_cents,
          cash_total_cents: state.refunded.cash_total_cents - event.data.calculation.cash_total_cents,
        };
        const status = refunded.cash_total_cents === state.settlement.cash_total_cents ? 'refunded' : 'partially_refunded';
        return { ...state, status, refunded };
      }
    }
  },

  decide(command, state) {
    switch (command.kind) {
      case 'RecordTransaction':
        if (state.status !== 'none') {
          throw new DomainError('TRANSACTION_EXISTS', `Transaction ${command.transaction_id} already exists`, 409);
        }
        return [{ type: 'TransactionRecorded', data: recordSale(command) }];
      case 'ApplyOverride':
        return [{ type: 'OverrideApplied', data: applyOverride(command, unrefunded(state, command.override.transaction_id, 'overridden')) }];
      case 'VoidTransaction':
        return [{ type: 'TransactionVoided', data: voidSale(command, unrefunded(state, command.void.original_transaction_id, 'voided')) }];
      case 'IssueRefund':
        return [{ type: 'RefundIssued', data: refundSale(command, notVoided(state, command.refund.original_transaction_id)) }];
    }
  },
};

function notVoided(state: TransactionState, transactionId: string): SaleState {
  if (state.status === 'none') throw new TransactionNotFoundError(transactionId);
  if (state.status === 'voided') throw new AlreadyVoidedError(transactionId);
  return state;
}

function unrefunded(state: TransactionState, transactionId: string, operation: 'voided' | 'overridden'): SaleState {
  const sale = notVoided(state, transactionId);
  if (sale.status === 'partially_refunded' || sale.status === 'refunded') throw new AlreadyRefundedError(transactionId, operation);
  return sale;
}

/** What the cash total answers for: the cash part of a split tender, else the whole price. */
function cashPrice({ is_split_tender, calculation }: TransactionRecordedData): number {
  return is_split_tender ? calculation.cash_portion_cents : calculation.ledger_total_cents;
}

/**
 * A goodwill override (customer-request, manager-discretion) stays within the tolerance of the
 * price either way; a correction (pricing-error, system-error) may lower the total to 0 but raise
 * it no further than the tolerance: an override moves the cash total, not the price.
 */
function overrideBounds(reason: OverrideReason, price: number, { tolerance_cents }: SaleChangeBounds): [number, number] {
  const goodwill = reason === 'customer-request' || reason === 'manager-discretion';
  return [goodwill ? Math.max(0, price - tolerance_cents) : 0, price + tolerance_cents];
}

function applyOverride({ override, override_id, now, bounds }: ApplyOverride, { sale, settlement }: SaleState): OverrideAppliedData {
  const calculated = sale.calculation;
  const [low, high] = overrideBounds(override.reason, cashPrice(sale), bounds);
  if (override.new_cash_total_cents < low || override.new_cash_total_cents > high) {
    throw new OverridePolicyViolationError(override.reason, override.new_cash_total_cents, low, high);
  }
  return {
    override_id,
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

/** `0 - x` rather than `-x`: no negative zero, which JSON writes as 0 but a deep equality tells apart. */
const negative = (cents: number) => 0 - cents;

/** A VOID or REFUND record: the sale's place, rule and tenders, with its own id, time and a clean score of its own. */
function reversalOf<T extends 'VOID' | 'REFUND'>(sale: TransactionRecordedData, type: T, transactionId: string, now: string): TransactionRecord<T> {
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

function voidViolations({ now, void: request, policy }: VoidTransaction, { sale, settlement }: SaleState): PolicyViolation[] {
  const ageMinutes = (Date.parse(now) - Date.parse(sale.created_at)) / MINUTE_MS;
  const violations: PolicyViolation[] = [];
  if (ageMinutes > policy.time_limit_minutes) {
    violations.push({ policy: 'time_limit', why: `the sale is ${Math.floor(ageMinutes)} minutes old; a void is allowed within ${policy.time_limit_minutes} minutes, later refund it` });
  }
  if (settlement.cash_total_cents > policy.amount_threshold_cents) {
    const [total, threshold] = [settlement.cash_total_cents, policy.amount_threshold_cents].map(centsToDollarsString);
    violations.push({ policy: 'amount_threshold', why: `the cash total $${total} is above the $${threshold} a void may cancel` });
  }
  if (request.void_reason === 'customer_changed_mind' && ageMinutes > policy.changed_mind_minutes) {
    violations.push({ policy: 'reason', why: `customer_changed_mind is a void reason within ${policy.changed_mind_minutes} minutes of the sale only; later refund it` });
  }
  // Correcting one's own mistake by cancelling the sale is the classic void abuse: a second employee authorizes it.
  if (request.void_reason === 'employee_error' && sale.cashier_id !== null && request.voided_by === sale.cashier_id) {
    violations.push({ policy: 'reason', why: `an employee_error void must be authorized by another employee than the sale's cashier ${sale.cashier_id}` });
  }
  return violations;
}

/** The mirror of the sale as it settled: every amount negated, so the delta is reversed exactly. */
function voidSale(command: VoidTransaction, state: SaleState): TransactionVoidedData {
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
      exemptions: calculation.exemptions.map((exemption) => ({ ...exemption, amount_cents: negative(exemption.amount_cents) })),
    },
    original_transaction_id: sale.transaction_id,
    void_reason: command.void.void_reason,
    voided_by: command.void.voided_by,
  };
}

/** The tax within the first `ledgerCents` refunded, in proportion: on running totals, so that all refunds add up to the sale's tax exactly. */
function taxWithin(sale: TransactionRecordedData, ledgerCents: number): number {
  const { ledger_total_cents, tax_total_cents } = sale.calculation;
  if (ledger_total_cents === 0) return 0;
  // BigInt: two amounts of up to 10^11 cents multiply past 2^53.
  return Number((BigInt(ledgerCents) * BigInt(tax_total_cents)) / BigInt(ledger_total_cents));
}

/**
 * DESIGN.md: the refund holds ledger -refund_amount and cash -round(refund_amount) under the sale's
 * mode, and the refund that hands back the rest mirrors what is left exactly, so that the refunds of
 * a sale add up to its amounts. A split tender refunds its cash part only: card and EBT go back
 * through their own networks.
 */
function refundSale({ refund, transaction_id, now, bounds }: IssueRefund, { sale, settlement, refunded }: SaleState): RefundIssuedData {
  const calculation = sale.calculation;
  const asked = refund.refund_amount;
  // Never past the cash settled, nor past the price by more than the tolerance (an unbounded override recorded before the bound).
  const refundable = Math.min(settlement.cash_total_cents, cashPrice(sale) + bounds.tolerance_cents) - refunded.cash_total_cents;
  if (asked > refundable) throw new RefundExceedsPaidError(sale.transaction_id, asked, refundable);
  const ledgerLeft = cashPrice(sale) - refunded.ledger_total_cents;
  // A sale recorded before the rule model's version 2 refunded as mirror_original does.
  const policy = sale.rule.refunds ?? 'mirror_original';
  const refund_cash = calculation.rounding_applied
    ? refundCash(asked, policy, calculation.cash_rounding_mode, { whole_sale: asked === refundable, sale_cash_remaining_cents: refundable })
    : { cash_refund_cents: asked, rounding_exemption: calculation.rounding_exemption ?? null };
  const cash = Math.min(refund_cash.cash_refund_cents, refundable);
  const last = cash === refundable;
  const ledger = last ? ledgerLeft : Math.min(asked, ledgerLeft);
  const tax = taxWithin(sale, refunded.ledger_total_cents + ledger) - taxWithin(sale, refunded.ledger_total_cents);
  const method: TenderType = calculation.cash_portion_cents > 0 ? 'cash' : sale.payment_method;
  // The record's delta: its cash (-cash) minus its ledger (-ledger).
  const delta = ledger - cash;
  const normalization = {
    passed: delta === 0 || settlement.rounding_delta_cents === 0 || Math.sign(delta) !== Math.sign(settlement.rounding_delta_cents),
    original_rounding_delta_cents: settlement.rounding_delta_cents,
    refund_rounding_delta_cents: delta,
  };
  return {
    ...reversalOf(sale, 'REFUND', transaction_id, now),
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
      rounding_exemption: refund_cash.rounding_exemption,
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

/** The spec leaves the split-tender fields open; these are the combinations that cannot be recorded truthfully. */
function checkTenders(sale: SaleRequest): TenderLine[] {
  const tenders = sale.tenders ?? [];
  if (sale.is_split_tender === true && tenders.length < 2) {
    throw new InvalidFieldError('tenders', 'a split tender needs at least two tenders');
  }
  if (sale.is_split_tender === false && tenders.length > 1) {
    throw new InvalidFieldError('is_split_tender', 'is_split_tender is false but several tenders were sent');
  }
  if (tenders.length > 0 && !tenders.some((tender) => tender.type === sale.payment_method)) {
    throw new InvalidFieldError('payment_method', `payment_method ${sale.payment_method} is not one of the tenders sent`);
  }
  return tenders;
}

/** Two modes agree when they round every amount alike; each mode's adjustment repeats every 10 cents. */
function sameArithmetic(a: RoundingMode, b: RoundingMode): boolean {
  return Array.from({ length: 10 }, (_, cents) => cents).every((cents) => roundCents(cents, a) === roundCents(cents, b));
}

/** Modes that round to the nearest 5 cents, so that up and down are equally likely by chance: what fraud bias is measured against. */
export const SYMMETRIC_MODES: readonly RoundingMode[] = ROUNDING_MODES.filter((mode) => sameArithmetic(mode, 'symmetrical_rounding'));

function recordSale(command: RecordTransaction): TransactionRecordedData {
  const { sale, jurisdiction, environment } = command;
  const { rule } = jurisdiction;
  const tenders = checkTenders(sale);
  const explicit = sale.cash_rounding_mode;
  const mode = explicit ?? rule.rounding_mode;
  const roundUnder = (roundingMode: RoundingMode) =>
    roundTender({
      payment_method: sale.payment_method,
      tenders,
      subtotal_cents: sale.subtotal_cents,
      tax_total_cents: sale.tax_total_cents,
      terms: { mode: roundingMode, rounds: rule.rounds, exact_change_exempt: rule.exact_change_exempt, small_total: rule.small_total },
      cash_tendered_cents: sale.cash_tendered_cents,
    });
  const calculation = roundUnder(mode);
  const contradicts = explicit !== undefined && rule.enforcement === 'mandatory' && !sameArithmetic(explicit, rule.rounding_mode);
  const warningCodes = new Set(jurisdiction.warnings.map((warning) => warning.code));

  const fraud = scoreFraud(
    {
      cash_portion_cents: calculation.cash_portion_cents,
      rounding_delta_cents: calculation.rounding_delta_cents,
      symmetric_mode: SYMMETRIC_MODES.includes(mode),
      contradicts_mandatory_rule: contradicts,
      explicit_mode_gain_cents: explicit === undefined ? 0 : calculation.cash_total_cents - roundUnder(rule.rounding_mode).cash_total_cents,
      zip_state_mismatch: warningCodes.has('STATE_ZIP_MISMATCH'),
      unverified_jurisdiction: warningCodes.has('UNKNOWN_ZIP_FALLBACK') || warningCodes.has('NO_LOCATION_FALLBACK'),
    },
    command.history,
  );
  const reasons = complianceReasons({ explicit, contradicts, environment, rule, jurisdiction, fraud });

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
      mode_source: explicit === undefined ? 'rule' : 'explicit',
      rounding_applied: calculation.rounding_applied,
      exemptions: calculation.exemptions ?? [],
      cash_tendered_cents: sale.cash_tendered_cents ?? null,
      change_due_cents: calculation.change_due_cents ?? null,
      rule_version: ruleVersionId(rule),
      rounding_exemption: calculation.rounding_exemption,
    },
    compliance: { compliance_status: statusOf(reasons), reasons },
    fraud,
  };
}

/** DESIGN.md: a borderline score needs review, a critical one fails the check. */
const RISK_SEVERITY: Partial<Record<RiskLevel, ComplianceReason['severity']>> = { MEDIUM: 'WARN', HIGH: 'WARN', CRITICAL: 'FAIL' };

interface ComplianceFacts {
  explicit: RoundingMode | undefined;
  contradicts: boolean;
  environment: KeyEnvironment;
  rule: JurisdictionRule;
  jurisdiction: JurisdictionResolution;
  fraud: FraudAssessment;
}

function complianceReasons({ explicit, contradicts, environment, rule, jurisdiction, fraud }: ComplianceFacts): ComplianceReason[] {
  const reasons: ComplianceReason[] = jurisdiction.warnings.map(({ code, message }) => ({ code, severity: 'WARN', message }));
  const law = rule.legislation ? ` (${rule.legislation})` : '';
  if (contradicts) {
    reasons.push({
      code: 'EXPLICIT_MODE_CONTRADICTS_MANDATORY_RULE',
      // A sandbox key exists to try modes out; a production key applying one breaks the law it names.
      severity: environment === 'production' ? 'FAIL' : 'WARN',
      message: `cash_rounding_mode ${explicit} contradicts the mandatory ${rule.rounding_mode} rule of ${rule.jurisdiction_id}${law}`,
    });
  } else if (explicit !== undefined) {
    reasons.push({
      code: 'EXPLICIT_ROUNDING_MODE',
      severity: 'WARN',
      message: `cash_rounding_mode ${explicit} was sent (the rule of ${rule.jurisdiction_id} is ${rule.rounding_mode}); explicit modes are for testing only`,
    });
  }
  const severity = RISK_SEVERITY[fraud.risk_level];
  if (severity) {
    reasons.push({
      code: `FRAUD_RISK_${fraud.risk_level}`,
      severity,
      message: `fraud score ${fraud.fraud_score} is ${fraud.risk_level}: ${fraud.signals.map((signal) => signal.code).join(', ')}`,
    });
  }
  return reasons;
}

function statusOf(reasons: readonly ComplianceReason[]): ComplianceStatus {
  if (reasons.some((reason) => reason.severity === 'FAIL')) return 'FAIL';
  return reasons.length > 0 ? 'WARN' : 'PASS';
}
