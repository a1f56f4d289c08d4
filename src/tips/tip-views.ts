// Each tip command's answer, from the event it appended and that event's entry in the chain.
import type { StoredEvent } from '../platform/event-store/event-store.port';
import { jurisdictionOf } from '../rules/tip-credit';
import type {
  TipAdjustedData,
  TipCreditCheckedData,
  TipPaidOutData,
  TipPoolDistributedData,
  TipPooledData,
} from './tip.events';
import { tipCreditStatusOf } from './tip.events';
import type {
  TipAdjustmentView,
  TipCreditCheckView,
  TipDistributionView,
  TipPayoutView,
  TipPoolView,
} from './tip.response.dto';

/** Where a record sits in the hash chain: every tip answer carries the hash of the entry it made. */
type ChainEntry = Pick<StoredEvent, 'position' | 'hash'>;
const chain = (entry: ChainEntry) => ({ auditHash: entry.hash, chain_position: entry.position });

export function adjustmentView(data: TipAdjustedData, entry: ChainEntry): TipAdjustmentView {
  const {
    adjustment_id: adjustmentId,
    tip_id: tipId,
    previous_amount_cents: previousAmountCents,
    new_amount_cents: newAmountCents,
    reason,
    adjusted_at: adjustedAt,
  } = data;
  return {
    id: adjustmentId,
    tip_id: tipId,
    previous_amount_cents: previousAmountCents,
    new_amount_cents: newAmountCents,
    reason,
    adjusted_at: adjustedAt,
    ...chain(entry),
  };
}

export function payoutView({ payout_id: payoutId, ...payout }: TipPaidOutData, entry: ChainEntry): TipPayoutView {
  return { id: payoutId, ...payout, ...chain(entry) };
}

export function poolView(data: TipPooledData, entry: ChainEntry): TipPoolView {
  const { pool_id: poolId, tips, ...pool } = data;
  return { id: poolId, ...pool, status: 'open', tip_ids: tips.map((tip) => tip.tip_id), ...chain(entry) };
}

/** From the append's entries: TipPoolDistributed, then one TipPoolSharePaid per share, in share order. */
export function distributionView([summary, ...payouts]: StoredEvent[]): TipDistributionView {
  const data = summary.data as TipPoolDistributedData;
  return {
    ...data,
    shares: data.shares.map((share, i) => ({
      ...share,
      audit_hash: payouts[i].hash,
      chain_position: payouts[i].position,
    })),
    ...chain(summary),
  };
}

/** From a check recorded with three-valued answers (every check this service makes now). */
export function creditCheckView(data: TipCreditCheckedData, entry: ChainEntry): TipCreditCheckView {
  const {
    check_id: checkId,
    requirements,
    city,
    county,
    zip_code: zipCode,
    rules,
    unknowns,
    reason,
    confidence,
    ...check
  } = data;
  const views = requirements.map((r) => ({ ...r, required: r.required_cents / 100, actual: r.actual_cents / 100 }));
  return {
    id: checkId,
    ...check,
    status: tipCreditStatusOf(data),
    reason: reason ?? null,
    unknowns: unknowns ?? [],
    confidence: confidence!,
    city: city ?? null,
    county: county ?? null,
    zip_code: zipCode ?? null,
    rules: { ...rules, local: rules.local ?? null, regions: rules.regions ?? [] },
    applied: [...new Set([rules.federal, rules.state, ...(rules.local ? [rules.local] : [])].map(jurisdictionOf))],
    requirements: views,
    failures: views.filter((r) => !r.met),
    ...chain(entry),
  };
}
