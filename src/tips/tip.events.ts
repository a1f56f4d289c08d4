import type { Confidence } from '../rules/jurisdiction-rule';
import type {
  TipCreditRequirement,
  TipCreditRulesApplied,
  TipCreditStatus,
  TipCreditUnknown,
  TipCreditUnknownReason,
} from '../rules/tip-credit';

/** Events of the tip feature, one union per stream. A type string, once stored, is never renamed. Money in cents. */

export const TIP_METHODS = ['cash', 'credit_card'] as const;
export type TipMethod = (typeof TIP_METHODS)[number];

export const PAYOUT_METHODS = ['cash', 'check', 'direct_deposit'] as const;
export type PayoutMethod = (typeof PAYOUT_METHODS)[number];

export const POOL_METHODS = ['equal', 'weighted', 'hours_based'] as const;
export type PoolMethod = (typeof POOL_METHODS)[number];

export const tipStream = (tipId: string) => `tip-${tipId}`;
export const tipPoolStream = (poolId: string) => `tipPool-${poolId}`;
export const tipPayoutStream = (payoutId: string) => `tipPayout-${payoutId}`;
export const tipCreditCheckStream = (checkId: string) => `tipCreditCheck-${checkId}`;

// ---- tip-<id> ----

export type TipRecordedData = {
  tip_id: string;
  merchant_id: string;
  transaction_id: string;
  method: TipMethod;
  employee_id: string;
  employee_name: string;
  amount_cents: number;
  /** The sale's ledger total when the tip was recorded, what the tip analytics measure it against; absent before issue 33. */
  sale_total_cents?: number;
  recorded_at: string;
};

/** Carries the merchant and employee so that a reader of the adjustment alone can tell whose tip shrank. */
export type TipAdjustedData = {
  tip_id: string;
  adjustment_id: string;
  merchant_id: string;
  employee_id: string;
  previous_amount_cents: number;
  new_amount_cents: number;
  reason: string;
  adjusted_at: string;
};

export interface TipRecorded {
  type: 'TipRecorded';
  data: TipRecordedData;
}

export interface TipAdjusted {
  type: 'TipAdjusted';
  data: TipAdjustedData;
}

export type TipEvent = TipRecorded | TipAdjusted;

export const TIP_EVENT_TYPES = ['TipRecorded', 'TipAdjusted'] as const satisfies readonly TipEvent['type'][];

// ---- tipPool-<id> ----

/** The spec's participant shape (camelCase), with the weight or hours its pool's method needs. */
export type PoolParticipant = {
  employeeId: string;
  employeeName: string;
  weight?: number;
  hours?: number;
};

export type PooledTip = { tip_id: string; employee_id: string; employee_name: string; amount_cents: number };

export type TipPooledData = {
  pool_id: string;
  merchant_id: string;
  pool_name: string;
  distribution_method: PoolMethod;
  participants: PoolParticipant[];
  /** Each tip with its amount when pooled: the pool's total is fixed from here on. */
  tips: PooledTip[];
  total_cents: number;
  /** The employees whose tips went in, in order of first appearance. */
  contributors: string[];
  created_at: string;
};

export type PoolShare = PoolParticipant & { share_cents: number };

export type TipPoolDistributedData = {
  pool_id: string;
  merchant_id: string;
  distribution_method: PoolMethod;
  total_cents: number;
  total_distributed_cents: number;
  /** total_distributed_cents - total_cents: what rounding every share up costs the employer. */
  rounding_adjustment_cents: number;
  shares: PoolShare[];
  distributed_at: string;
};

/** One per participant, right after TipPoolDistributed: each payout is an entry of its own in the chain. */
export type TipPoolSharePaidData = {
  pool_id: string;
  merchant_id: string;
  employee_id: string;
  employee_name: string;
  share_cents: number;
  paid_at: string;
};

export interface TipPooled {
  type: 'TipPooled';
  data: TipPooledData;
}

export interface TipPoolDistributed {
  type: 'TipPoolDistributed';
  data: TipPoolDistributedData;
}

export interface TipPoolSharePaid {
  type: 'TipPoolSharePaid';
  data: TipPoolSharePaidData;
}

export type TipPoolEvent = TipPooled | TipPoolDistributed | TipPoolSharePaid;

// ---- tipPayout-<id> ----

export type TipPaidOutData = {
  payout_id: string;
  merchant_id: string;
  employee_id: string;
  employee_name: string;
  amount_cents: number;
  payout_method: PayoutMethod;
  paid_at: string;
};

export interface TipPaidOut {
  type: 'TipPaidOut';
  data: TipPaidOutData;
}

// ---- tipCreditCheck-<id> ----

export type TipCreditCheckedData = {
  check_id: string;
  merchant_id: string;
  employee_id: string | null;
  state: string;
  /** As sent, or the ZIP's, for a city's own rule; absent when neither gave one (and in checks recorded before cities). */
  city?: string;
  /** As sent, or the ZIP's, for a region's or a county's rule; absent when neither gave one (and in checks recorded before regions). */
  county?: string;
  /** As sent; absent when none was sent. */
  zip_code?: string;
  hourly_wage_cents: number;
  average_tips_per_hour_cents: number;
  /** Absent in checks recorded before three-valued answers: `compliant` (then never null) decides (tipCreditStatusOf). */
  status?: TipCreditStatus;
  compliant: boolean | null;
  reason?: TipCreditUnknownReason | null;
  requirements: TipCreditRequirement[];
  /** What the rule data could not settle; absent before three-valued answers. */
  unknowns?: TipCreditUnknown[];
  notes: string[];
  /** The least confidence of the records applied; absent before records carried one. */
  confidence?: Confidence;
  /**
   * The seed entries applied, with their sources, as they stood at the check: `state` a region's where one applied,
   * `local` a city's or county's own, `regions` each region weighed when no county was named.
   */
  rules: TipCreditRulesApplied;
  checked_at: string;
};

export const tipCreditStatusOf = (data: TipCreditCheckedData): TipCreditStatus =>
  data.status ?? (data.compliant ? 'compliant' : 'non_compliant');

export interface TipCreditChecked {
  type: 'TipCreditChecked';
  data: TipCreditCheckedData;
}
