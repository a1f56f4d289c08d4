/**
 * The commands of a sale's stream, as the handlers build them for the decider. The request a client
 * sent is its use case's request DTO, named here as a type only: one declaration of each request's
 * fields, and nothing of Swagger or the validator loaded with the decider (docs/adr/0031-one-declaration-per-request.md).
 */

import type { MerchantHistory } from '../rules/fraud-score';
import type { JurisdictionResolution } from '../rules/jurisdiction-resolver';
import type { RoundingPolicy } from '../rules/rounding-policy';
import type { KeyEnvironment } from './transaction.events';
import type { ApplyOverrideRequest } from './apply-override/apply-override.request.dto';
import type { IssueRefundRequest } from './issue-refund/issue-refund.request.dto';
import type { RecordTransactionRequest } from './record-transaction/record-transaction.request.dto';
import type { VoidTransactionRequest } from './void-transaction/void-transaction.request.dto';
import type { EntryRef } from '@crcs/tlog';

/** Time, id, rule and history come in through the command: `decide` reads no clock, database or configuration. */
export interface RecordTransaction {
  kind: 'RecordTransaction';
  transaction_id: string;
  /** ISO instant of the sale. */
  now: string;
  environment: KeyEnvironment;
  sale: RecordTransactionRequest;
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

/** docs/design.md "Overrides are bounded"; the tolerance comes from the configuration, through the command. */
export interface SaleChangeBounds {
  /** An override or the sale's refunds reach at most this many cents past its price. */
  tolerance_cents: number;
}

export interface ApplyOverride {
  kind: 'ApplyOverride';
  override_id: string;
  now: string;
  override: ApplyOverrideRequest;
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

export interface VoidTransaction {
  kind: 'VoidTransaction';
  /** The VOID record's own id. */
  transaction_id: string;
  now: string;
  void: VoidTransactionRequest;
  policy: VoidPolicy;
}

export interface IssueRefund {
  kind: 'IssueRefund';
  /** The REFUND record's own id. */
  transaction_id: string;
  now: string;
  refund: IssueRefundRequest;
  bounds: SaleChangeBounds;
}

export type TransactionCommand = RecordTransaction | ApplyOverride | VoidTransaction | IssueRefund;
