import { InvalidFieldError } from '../auth/auth.errors';
import type { Decider } from '../common/decider';
import { DomainError } from '../common/errors/domain-error';
import { scoreFraud, type FraudAssessment, type MerchantHistory, type RiskLevel } from '../fraud/fraud-score';
import type { JurisdictionResolution } from '../jurisdiction/jurisdiction-resolver';
import type { JurisdictionRule } from '../jurisdiction/jurisdiction-rule';
import { ROUNDING_MODES, roundCents, roundTender, type RoundingMode, type TenderType } from '../rounding/rounding-engine';
import type {
  ComplianceReason,
  ComplianceStatus,
  KeyEnvironment,
  TenderLine,
  TransactionEvent,
  TransactionRecordedData,
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

export type TransactionCommand = RecordTransaction;

export type TransactionState = { status: 'none' } | { status: 'recorded'; sale: TransactionRecordedData };

export const transactionDecider: Decider<TransactionCommand, TransactionState, TransactionEvent> = {
  initialState: () => ({ status: 'none' }),

  evolve(state, event) {
    switch (event.type) {
      case 'TransactionRecorded':
        return { status: 'recorded', sale: event.data };
      default:
        return state;
    }
  },

  decide(command, state) {
    switch (command.kind) {
      case 'RecordTransaction':
        if (state.status !== 'none') {
          throw new DomainError('TRANSACTION_EXISTS', `Transaction ${command.transaction_id} already exists`, 409);
        }
        return [{ type: 'TransactionRecorded', data: recordSale(command) }];
    }
  },
};

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
      mode: roundingMode,
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
