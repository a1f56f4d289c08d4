/** The API schemas of a transaction's answers; read-model/transaction-view.ts builds their values from the events. */

import { ApiProperty, ApiSchema, OmitType } from '@nestjs/swagger';
import { ENVIRONMENTS } from '../platform/identity/principal';
import { RISK_LEVELS, type FraudSignal, type RiskLevel } from '../rules/fraud-signals';
import { FraudSignalDto } from './fraud-signal.response.dto';
import { EnforcedRuleDto } from './enforced-rule.response.dto';
import { HashProperty } from '../platform/openapi/hash-property';
import type { ResolvedLocation } from '../rules/jurisdiction-resolver';
import { JurisdictionRuleDto, ResolvedLocationDto } from '../jurisdiction/jurisdiction.response.dto';
import {
  CONFIDENCES,
  ENFORCEMENTS,
  RULE_STATUSES,
  type Confidence,
  type Enforcement,
  type JurisdictionRule,
  type RuleStatus,
} from '../rules/jurisdiction-rule';
import { ROUNDING_EXEMPTIONS, type RoundingExemption } from '../rules/cash-settlement';
import {
  ROUNDING_MODES,
  TENDER_TYPES,
  type EnforcedRule,
  type RoundingMode,
  type TenderType,
} from '../rules/rounding-engine';
import { ROUNDING_POLICIES, type AppliedPolicy, type RoundingPolicy } from '../rules/rounding-policy';
import { TRANSACTION_ID_EXAMPLE } from './transaction.request.dto';
import { COMPLIANCE_REASON_CODES } from './compliance-reason-codes';
import {
  COMPLIANCE_STATUSES,
  MODE_SOURCES,
  OVERRIDE_REASONS,
  REASON_SEVERITIES,
  REFUND_REASONS,
  TRANSACTION_EVENT_TYPES,
  TRANSACTION_STATES,
  TRANSACTION_TYPES,
  VOID_REASONS,
  type ComplianceReason,
  type ComplianceStatus,
  type KeyEnvironment,
  type ModeSource,
  type NormalizationCheck,
  type OverrideReason,
  type RefundReason,
  type Settlement,
  type TransactionStatus,
  type TransactionType,
  type VoidReason,
} from './transaction.events';

@ApiSchema({ name: 'ComplianceReason' })
export class ComplianceReasonDto implements ComplianceReason {
  @ApiProperty({
    enum: Object.keys(COMPLIANCE_REASON_CODES),
    description: `Stable code of the finding; new codes may be added without a major version, so read an unknown one by its \`severity\`:\n${Object.entries(
      COMPLIANCE_REASON_CODES,
    )
      .map(([code, meaning]) => `- \`${code}\`: ${meaning}`)
      .join('\n')}`,
    example: 'EXPLICIT_ROUNDING_MODE',
  })
  code: string;

  @ApiProperty({
    enum: REASON_SEVERITIES,
    description: 'The compliance status this finding alone would give',
    example: 'WARN',
  })
  severity: (typeof REASON_SEVERITIES)[number];

  @ApiProperty({
    description: 'For people; may change between releases',
    example:
      'cash_rounding_mode mandatory_round_up was sent (the rule of US-AZ is symmetrical_rounding); explicit modes are for testing only',
  })
  message: string;
}

@ApiSchema({ name: 'Settlement' })
export class SettlementDto implements Settlement {
  @ApiProperty({ type: 'integer', example: 1075 })
  cash_total_cents: number;

  @ApiProperty({ type: 'integer', example: -2 })
  rounding_delta_cents: number;
}

@ApiSchema({ name: 'NormalizationCheck' })
export class NormalizationCheckDto implements NormalizationCheck {
  @ApiProperty({
    description:
      "True when the refund's rounding delta is 0, the sale's is 0, or they have opposite signs; a failure makes the REFUND record a `WARN` and never blocks it",
    example: true,
  })
  passed: boolean;

  @ApiProperty({ type: 'integer', description: "The sale's settled rounding delta", example: -2 })
  original_rounding_delta_cents: number;

  @ApiProperty({
    type: 'integer',
    description: "The refund record's rounding delta: its cash total minus its ledger total",
    example: 2,
  })
  refund_rounding_delta_cents: number;
}

const AUDIT_HASH_EXAMPLE = '3b1f0c2a9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a';

export class TenderView {
  @ApiProperty({ enum: TENDER_TYPES, example: 'cash' })
  type: TenderType;

  @ApiProperty({
    type: 'integer',
    description: 'As sent (the whole ledger total for a single tender); negative on VOID and REFUND records',
    example: 1077,
  })
  amount_cents: number;

  @ApiProperty({ description: 'Whether this tender was rounded: cash, when the mode rounds', example: true })
  rounded: boolean;

  /** Why a non-cash tender was left as it is; null for cash. */
  @ApiProperty({
    type: EnforcedRuleDto,
    nullable: true,
    description: 'Why a non-cash tender was not rounded, with its citation; null for cash',
  })
  exemption: EnforcedRule | null;
}

/** The arithmetic of the record: the spec's `transaction.calculation`, and what it was decided on. */
@ApiSchema({ name: 'AppliedRoundingPolicy' })
export class AppliedPolicyView implements AppliedPolicy {
  @ApiProperty({
    enum: ROUNDING_POLICIES,
    description: "The merchant's policy when the sale was made",
    example: 'favor_customer',
  })
  requested: RoundingPolicy;

  @ApiProperty({ enum: ROUNDING_POLICIES, description: 'The policy the cash was rounded under', example: 'rule' })
  applied: RoundingPolicy;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description:
      'Why the requested policy did not apply (a mandatory rule that does not let a merchant round down, or an explicit `cash_rounding_mode`); null when it did',
    example:
      'the mandatory swedish_rounding rule of US-AZ (SB 1108) does not let a merchant round down; the rule was applied',
  })
  reason: string | null;
}

export class TransactionCalculation {
  @ApiProperty({ type: 'integer', description: 'Pre-tax subtotal; negative on VOID and REFUND records', example: 1000 })
  subtotal_cents: number;

  @ApiProperty({
    type: 'integer',
    description: "Tax as sent, computed on the unrounded subtotal; a REFUND record holds its share of the sale's tax",
    example: 77,
  })
  tax_total_cents: number;

  @ApiProperty({ type: 'integer', description: 'Unrounded total: subtotal plus tax', example: 1077 })
  ledger_total_cents: number;

  @ApiProperty({
    type: 'integer',
    description:
      "The cash to collect after rounding; for a split tender, the rounded cash portion only. On an overridden sale, the override's new cash total, which settles it",
    example: 1075,
  })
  cash_total_cents: number;

  @ApiProperty({
    type: 'integer',
    description:
      'Rounded cash minus unrounded cash (cash total minus ledger total for a single cash tender): positive means rounded up, negative down',
    example: -2,
  })
  rounding_delta_cents: number;

  @ApiProperty({ enum: TENDER_TYPES, example: 'cash' })
  payment_method: TenderType;

  @ApiProperty({ enum: ROUNDING_MODES, description: 'The mode applied to the cash', example: 'swedish_rounding' })
  cash_rounding_mode: RoundingMode;

  @ApiProperty({
    description:
      'The resolved jurisdiction: `US-<state>`, longer for a county or city rule, `US` for the federal default',
    example: 'US-AZ',
  })
  jurisdiction: string;

  @ApiProperty({
    description:
      'True when there is cash and the mode rounds (even an amount already a multiple of 5 cents); false for non-cash payments and for the modes `none` and `nearest_cent`',
    example: true,
  })
  rounding_applied: boolean;

  @ApiProperty({
    enum: MODE_SOURCES,
    description:
      "`rule`: the jurisdiction rule's mode; `explicit`: the request's `cash_rounding_mode`; `merchant_policy`: the merchant's `favor_customer` policy (down to the nickel)",
    example: 'rule',
  })
  mode_source: ModeSource;

  @ApiProperty({ example: false })
  is_split_tender: boolean;

  @ApiProperty({ type: 'integer', description: 'The unrounded amount paid in cash', example: 1077 })
  cash_portion_cents: number;

  @ApiProperty({
    type: [TenderView],
    description: 'The tenders sent, or the single tender of `payment_method` for the whole ledger total',
  })
  tenders: TenderView[];

  @ApiProperty({
    type: 'integer',
    nullable: true,
    minimum: 0,
    description: 'The cash handed over, as sent; null when the POS did not send it',
    example: 2000,
  })
  cash_tendered_cents: number | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    minimum: 0,
    description: 'The change handed back: `cash_tendered_cents` minus `cash_total_cents`; null without a tender',
    example: 925,
  })
  change_due_cents: number | null;

  @ApiProperty({
    description:
      'The rule version the sale was rounded under: `<jurisdiction_id>:<scope>@<effective_date>` (`undated` for a version with no known start)',
    example: 'US-AZ:retail@undated',
  })
  rule_version: string;

  @ApiProperty({
    enum: ROUNDING_EXEMPTIONS,
    nullable: true,
    description:
      'Why the cash was not rounded as the mode alone would round it: `tender` (no cash), `exact_change` (the exact amount was tendered under a rule that exempts it), `small_total` (the rule’s tiny-total rule), `no_rule` (the mode rounds nothing), `refund_policy` (the rule refunds the exact amount); null when it was',
    example: null,
  })
  rounding_exemption: RoundingExemption | null;

  @ApiProperty({
    type: () => AppliedPolicyView,
    description:
      "The merchant's rounding policy (`PUT /merchant/{merchant_id}/rounding-policy`) and whether the law let it apply",
  })
  rounding_policy: AppliedPolicy;
}

export class ComplianceView {
  @ApiProperty({
    enum: COMPLIANCE_STATUSES,
    description: '`FAIL` when any reason fails, `WARN` when there are reasons, else `PASS`',
    example: 'PASS',
  })
  compliance_status: ComplianceStatus;

  @ApiProperty({ type: [ComplianceReasonDto] })
  reasons: ComplianceReason[];
}

/** An override record, as the sale's detail lists it and `POST /transaction/override` answers it: the event's facts under the record's id. */
export class OverrideView {
  @ApiProperty({
    description: "The override record's own id, `OVR-YYYY-MM-DD-XXXXXXXX`",
    example: 'OVR-2026-11-21-4D7H2K9P',
  })
  id: string;

  @ApiProperty({ description: 'The sale overridden', example: TRANSACTION_ID_EXAMPLE })
  transaction_id: string;

  @ApiProperty({ format: 'date-time', example: '2026-11-21T09:41:03.118Z' })
  created_at: string;

  @ApiProperty({ example: 'mgr-014' })
  employee_id: string;

  @ApiProperty({ description: 'As sent, never trimmed or normalized', example: 'Dana Whitfield' })
  employee_name: string;

  @ApiProperty({ enum: OVERRIDE_REASONS, example: 'customer-request' })
  reason: OverrideReason;

  @ApiProperty({
    type: 'integer',
    description: "The cash total the sale's own calculation gave, whatever overrides came before",
    example: 1075,
  })
  calculated_cash_total_cents: number;

  @ApiProperty({
    type: 'integer',
    description: 'The cash total that settled the sale before this override',
    example: 1075,
  })
  previous_cash_total_cents: number;

  @ApiProperty({ type: 'integer', example: 1080 })
  new_cash_total_cents: number;

  @ApiProperty({
    type: 'integer',
    description: "The settlement's new delta: the calculated one moved by as much as the cash total was",
    example: 3,
  })
  rounding_delta_cents: number;

  @HashProperty({ description: "SHA-256 of the override's entry in the hash chain", example: AUDIT_HASH_EXAMPLE })
  auditHash: string;

  @ApiProperty({ type: 'integer', example: 1207 })
  chain_position: number;
}

/** VOID and REFUND records: why, and who; a refund adds the amount asked and its normalization check. */
export class ReversalView {
  @ApiProperty({
    enum: [...VOID_REASONS, ...REFUND_REASONS],
    description: 'The void reason of a VOID record, the refund reason of a REFUND record',
    example: 'pricing_error',
  })
  void_reason: VoidReason | RefundReason;

  @ApiProperty({
    description: 'The employee who authorized the void or processed the refund, as sent',
    example: 'mgr-014',
  })
  voided_by: string;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description:
      "REFUND records: the amount asked; the record's cash total is what was handed back. Null on a VOID record",
    example: null,
  })
  refund_amount_cents: number | null;

  @ApiProperty({
    type: NormalizationCheckDto,
    nullable: true,
    description: 'REFUND records: the normalization check. Null on a VOID record',
  })
  normalization: NormalizationCheck | null;
}

/** The transaction as the API shows it: the `transaction` of `POST /transaction` and each item of `GET /transactions`. */
export class TransactionView {
  @ApiProperty({
    description: '`TXN-YYYY-MM-DD-XXXXXXXX`: the UTC date of the record, then 8 characters',
    example: TRANSACTION_ID_EXAMPLE,
  })
  id: string;

  @ApiProperty({ enum: TRANSACTION_TYPES, example: 'SALE' })
  type: TransactionType;

  /** A sale's state after its overrides, void and refunds; VOID and REFUND records are `completed`. */
  @ApiProperty({
    enum: TRANSACTION_STATES,
    description: "A sale's state after its override, void and refunds; VOID and REFUND records are always `completed`",
    example: 'completed',
  })
  state: TransactionStatus;

  /** VOID and REFUND records: the sale they reverse. */
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'VOID and REFUND records: the sale they reverse; null for a sale',
    example: null,
  })
  original_transaction_id: string | null;

  @ApiProperty({ example: 'corner-market-01' })
  merchant_id: string;

  @ApiProperty({
    enum: ENVIRONMENTS,
    description: 'The environment of the key that recorded the sale',
    example: 'sandbox',
  })
  environment: KeyEnvironment;

  @ApiProperty({ type: 'string', nullable: true, example: 'store-12' })
  store_id: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: 'lane-3' })
  terminal_id: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: 'cashier-207' })
  cashier_id: string | null;

  @ApiProperty({ format: 'date-time', example: '2026-11-21T09:30:12.345Z' })
  created_at: string;

  @ApiProperty({
    type: TransactionCalculation,
    description:
      'The arithmetic; on VOID and REFUND records every amount is negative, mirroring what they give back of the sale',
  })
  calculation: TransactionCalculation;

  /** The applied rule as it stood at the time of the sale, with its legislation, source and notes. */
  @ApiProperty({
    type: () => JurisdictionRuleDto,
    description: 'The applied rule as it stood at the time of the sale, whatever it says today',
  })
  rule: JurisdictionRule;

  @ApiProperty({
    type: () => ResolvedLocationDto,
    description: 'Where the sale was made, as resolved from the ZIP code or the place sent',
  })
  location: ResolvedLocation;

  @ApiProperty({ type: ComplianceView })
  compliance: ComplianceView;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    maximum: 100,
    description:
      "0 means no detected risk; the sum of the signals' points, capped at 100. VOID and REFUND records score 0",
    example: 0,
  })
  fraud_score: number;

  @ApiProperty({ enum: RISK_LEVELS, example: 'NONE' })
  risk_level: RiskLevel;

  @ApiProperty({ type: () => [FraudSignalDto], description: 'The fraud signals that fired' })
  fraud_signals: FraudSignal[];

  @HashProperty({
    description: "SHA-256 of the record's entry in the hash chain, which includes the previous entry's hash",
    example: AUDIT_HASH_EXAMPLE,
  })
  auditHash: string;

  @ApiProperty({ type: 'integer', description: "The record's position in the hash chain", example: 1204 })
  chain_position: number;

  @ApiProperty({
    type: ReversalView,
    nullable: true,
    description: 'VOID and REFUND records: why and who; null for a sale',
  })
  reversal: ReversalView | null;

  /** An overridden sale: its calculation's own cash total and delta; `calculation` holds the ones that settle. */
  @ApiProperty({
    type: SettlementDto,
    nullable: true,
    description:
      "An overridden sale: its calculation's own cash total and delta (`calculation` holds the override's, which settle it); else null",
  })
  original_calculation: Settlement | null;

  @ApiProperty({ type: [OverrideView], description: "A sale's overrides, oldest first" })
  overrides: OverrideView[];

  @ApiProperty({ type: 'string', nullable: true, description: 'A voided sale: its VOID record', example: null })
  void_transaction_id: string | null;

  @ApiProperty({
    type: 'array',
    items: { type: 'string' },
    description: "A sale's REFUND records, oldest first",
    example: [],
  })
  refund_transaction_ids: string[];

  /** A sale: cash handed back by its refunds, and what may still be (0 once voided). */
  @ApiProperty({
    type: 'integer',
    description: 'A sale: the cash its refunds handed back; 0 on VOID and REFUND records',
    example: 0,
  })
  refunded_cents: number;

  @ApiProperty({
    type: 'integer',
    description: 'A sale: the cash its refunds may still hand back (0 once voided); 0 on VOID and REFUND records',
    example: 1075,
  })
  refundable_cents: number;
}

/** What a point of sale needs of the applied rule with each sale; the whole record is one GET away. */
@ApiSchema({ name: 'RuleSummary' })
export class RuleSummaryView {
  @ApiProperty({
    description:
      'The place the rule is for: `US` (federal), `<state>`, `<state>-<county>` or `<state>-<county>-<city>`',
    example: 'AZ',
  })
  lookup_key: string;

  @ApiProperty({
    description:
      'The rule version the sale was rounded under, as `calculation.rule_version`: `<jurisdiction_id>:<scope>@<effective_date>`',
    example: 'US-AZ:retail@undated',
  })
  version: string;

  @ApiProperty({
    enum: ROUNDING_MODES,
    description: "The rule's mode (the mode applied to the cash is `calculation.cash_rounding_mode`)",
    example: 'swedish_rounding',
  })
  rounding_mode: RoundingMode;

  @ApiProperty({ enum: ENFORCEMENTS, example: 'mandatory' })
  enforcement: Enforcement;

  @ApiProperty({ enum: RULE_STATUSES, example: 'enacted' })
  status: RuleStatus;

  @ApiProperty({
    enum: CONFIDENCES,
    description:
      'How sure the record is: `high` only with official text (statute, regulation, agency guidance, bill text)',
    example: 'low',
  })
  confidence: Confidence;

  @ApiProperty({
    description:
      'Where to read the whole rule as it stood at the time of the sale, with its legislation, sources and notes: `GET` this sale (the audit receipt holds it too; `GET /jurisdiction/…` answers the rule as it stands now)',
    example: `/api/v1/transaction/${TRANSACTION_ID_EXAMPLE}`,
  })
  href: string;
}

/** `POST /transaction`'s record: the view, with a summary of the rule instead of the whole record. */
@ApiSchema({ name: 'RecordedSale' })
export class RecordedSaleView extends OmitType(TransactionView, ['rule'] as const) {
  @ApiProperty({
    type: () => RuleSummaryView,
    description: 'The applied rule as it stood at the time of the sale, in summary: `href` answers it in full',
  })
  rule: RuleSummaryView;
}

/** One entry of the hash chain about this transaction: the sale's own, then its overrides, void and refunds. */
export class HistoryEntry {
  @ApiProperty({ enum: TRANSACTION_EVENT_TYPES, description: 'The event of the entry', example: 'TransactionRecorded' })
  event: string;

  @ApiProperty({ type: 'integer', example: 1204 })
  chain_position: number;

  @HashProperty({ example: AUDIT_HASH_EXAMPLE })
  audit_hash: string;

  @ApiProperty({ format: 'date-time', example: '2026-11-21T09:30:12.351Z' })
  recorded_at: string;
}

/** `GET /transaction/{id}`: the view plus the transaction's history in the chain. */
export class TransactionDetail extends TransactionView {
  @ApiProperty({
    type: [HistoryEntry],
    description: "The record's entries in the hash chain: a sale's own, then its override, void and refund entries",
  })
  history: HistoryEntry[];
}
