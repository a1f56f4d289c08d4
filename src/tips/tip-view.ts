import type { StoredEvent } from '../event-store/event-store.port';
import type { HistoryEntry } from '../transactions/transaction-view';
import type {
  PoolShare,
  TipAdjustedData,
  TipCreditCheckedData,
  TipCreditRequirement,
  TipPaidOutData,
  TipPoolDistributedData,
  TipPooledData,
  TipRecordedData,
} from './tip.events';

/** Where a record sits in the hash chain: every tip answer carries the hash of the entry it made. */
type ChainEntry = Pick<StoredEvent, 'position' | 'hash'>;
const chain = (entry: ChainEntry) => ({ auditHash: entry.hash, chain_position: entry.position });

/** A tip as the API shows it, at its current amount; `history` is its entries in the chain, adjustments included. */
export interface TipView extends Omit<TipRecordedData, 'tip_id' | 'recorded_at'> {
  id: string;
  original_amount_cents: number;
  pool_id: string | null;
  created_at: string;
  auditHash: string;
  chain_position: number;
  history: HistoryEntry[];
}

export interface TipAdjustmentView {
  id: string;
  tip_id: string;
  previous_amount_cents: number;
  new_amount_cents: number;
  reason: string;
  adjusted_at: string;
  auditHash: string;
  chain_position: number;
}

export function adjustmentView(data: TipAdjustedData, entry: ChainEntry): TipAdjustmentView {
  const { adjustment_id, tip_id, previous_amount_cents, new_amount_cents, reason, adjusted_at } = data;
  return { id: adjustment_id, tip_id, previous_amount_cents, new_amount_cents, reason, adjusted_at, ...chain(entry) };
}

export interface TipPayoutView extends Omit<TipPaidOutData, 'payout_id'> {
  id: string;
  auditHash: string;
  chain_position: number;
}

export function payoutView({ payout_id, ...payout }: TipPaidOutData, entry: ChainEntry): TipPayoutView {
  return { id: payout_id, ...payout, ...chain(entry) };
}

export interface TipPoolView extends Omit<TipPooledData, 'pool_id' | 'tips'> {
  id: string;
  status: 'open';
  tip_ids: string[];
  auditHash: string;
  chain_position: number;
}

export function poolView(data: TipPooledData, entry: ChainEntry): TipPoolView {
  const { pool_id, tips, ...pool } = data;
  return { id: pool_id, ...pool, status: 'open', tip_ids: tips.map((tip) => tip.tip_id), ...chain(entry) };
}

export interface TipDistributionView extends Omit<TipPoolDistributedData, 'shares'> {
  /** Each participant's share with its own payout entry in the chain. */
  shares: (PoolShare & { audit_hash: string; chain_position: number })[];
  auditHash: string;
  chain_position: number;
}

/** From the append's entries: TipPoolDistributed, then one TipPoolSharePaid per share, in share order. */
export function distributionView([summary, ...payouts]: StoredEvent[]): TipDistributionView {
  const data = summary.data as TipPoolDistributedData;
  return {
    ...data,
    shares: data.shares.map((share, i) => ({ ...share, audit_hash: payouts[i].hash, chain_position: payouts[i].position })),
    ...chain(summary),
  };
}

/** A requirement with its amounts in dollars too, as the caller sent them. */
export interface RequirementView extends TipCreditRequirement {
  required: number;
  actual: number;
}

export interface TipCreditCheckView extends Omit<TipCreditCheckedData, 'check_id' | 'requirements'> {
  id: string;
  requirements: RequirementView[];
  /** The requirements not met, each with what it required and what it got. */
  failures: RequirementView[];
  auditHash: string;
  chain_position: number;
}

export function creditCheckView({ check_id, requirements, ...check }: TipCreditCheckedData, entry: ChainEntry): TipCreditCheckView {
  const views = requirements.map((r) => ({ ...r, required: r.required_cents / 100, actual: r.actual_cents / 100 }));
  return { id: check_id, ...check, requirements: views, failures: views.filter((r) => !r.met), ...chain(entry) };
}
