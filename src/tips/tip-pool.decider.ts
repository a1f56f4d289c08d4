import { InvalidFieldError } from '../platform/errors/request.errors';
import type { Decider } from '../platform/decider';
import { splitPool } from './tip-pool-shares';
import {
  PoolAlreadyDistributedError,
  TipAlreadyPooledError,
  TipRecordExistsError,
  TipRecordNotFoundError,
} from './tip.errors';
import type {
  PoolMethod,
  PoolParticipant,
  PooledTip,
  TipPoolDistributedData,
  TipPoolEvent,
  TipPooledData,
} from './tip.events';

/** A tip as the tips read model holds it when the pool is made. */
export interface TipSnapshot extends PooledTip {
  pool_id: string | null;
}

export interface CreateTipPool {
  kind: 'CreateTipPool';
  pool_id: string;
  merchant_id: string;
  pool_name: string;
  distribution_method: PoolMethod;
  participants: PoolParticipant[];
  /** Every tip named, in the order named; the handler has already answered 404 for any not the merchant's. */
  tips: TipSnapshot[];
  now: string;
}

export interface DistributeTipPool {
  kind: 'DistributeTipPool';
  pool_id: string;
  now: string;
}

export type TipPoolCommand = CreateTipPool | DistributeTipPool;

export type TipPoolState =
  | { status: 'none' }
  | { status: 'open'; pool: TipPooledData }
  | { status: 'distributed'; pool: TipPooledData; distribution: TipPoolDistributedData };

/** What each participant must send besides employeeId and employeeName, by method. */
const SHARE_BASIS: Record<PoolMethod, 'weight' | 'hours' | null> = {
  equal: null,
  weighted: 'weight',
  hours_based: 'hours',
};

export const tipPoolDecider: Decider<TipPoolCommand, TipPoolState, TipPoolEvent> = {
  initialState: () => ({ status: 'none' }),

  evolve(state, event) {
    switch (event.type) {
      case 'TipPooled':
        return { status: 'open', pool: event.data };
      case 'TipPoolDistributed':
        return state.status === 'none' ? state : { status: 'distributed', pool: state.pool, distribution: event.data };
      default:
        return state;
    }
  },

  decide(command, state) {
    switch (command.kind) {
      case 'CreateTipPool':
        if (state.status !== 'none') throw new TipRecordExistsError(command.pool_id);
        return [{ type: 'TipPooled', data: createPool(command) }];
      case 'DistributeTipPool':
        if (state.status === 'none') throw new TipRecordNotFoundError('Tip pool', command.pool_id);
        if (state.status === 'distributed') throw new PoolAlreadyDistributedError(command.pool_id);
        return distribute(state.pool, command.now);
    }
  },
};

function checkParticipants(method: PoolMethod, participants: readonly PoolParticipant[]): PoolParticipant[] {
  const basis = SHARE_BASIS[method];
  const seen = new Set<string>();
  return participants.map((participant, i) => {
    for (const field of ['weight', 'hours'] as const) {
      const sent = participant[field] !== undefined;
      if (field === basis && !sent)
        throw new InvalidFieldError(
          `participants.${i}.${field}`,
          `${method} pools need a ${field} for every participant`,
        );
      if (field !== basis && sent)
        throw new InvalidFieldError(`participants.${i}.${field}`, `${field} does not apply to ${method} pools`);
    }
    if (seen.has(participant.employeeId)) {
      throw new InvalidFieldError(`participants.${i}.employeeId`, `employee ${participant.employeeId} is listed twice`);
    }
    seen.add(participant.employeeId);
    const { employeeId, employeeName } = participant;
    return basis === null ? { employeeId, employeeName } : { employeeId, employeeName, [basis]: participant[basis] };
  });
}

function createPool(command: CreateTipPool): TipPooledData {
  const participants = checkParticipants(command.distribution_method, command.participants);
  const pooled = command.tips.filter((tip): tip is TipSnapshot & { pool_id: string } => tip.pool_id !== null);
  if (pooled.length > 0) throw new TipAlreadyPooledError(pooled);
  const tips = command.tips.map(
    ({ tip_id: tipId, employee_id: employeeId, employee_name: employeeName, amount_cents: amountCents }) => ({
      tip_id: tipId,
      employee_id: employeeId,
      employee_name: employeeName,
      amount_cents: amountCents,
    }),
  );
  return {
    pool_id: command.pool_id,
    merchant_id: command.merchant_id,
    pool_name: command.pool_name,
    distribution_method: command.distribution_method,
    participants,
    tips,
    total_cents: tips.reduce((sum, tip) => sum + tip.amount_cents, 0),
    contributors: [...new Set(tips.map((tip) => tip.employee_id))],
    created_at: command.now,
  };
}

/** The summary first, then one payout entry per participant, all in one append. */
function distribute(pool: TipPooledData, now: string): TipPoolEvent[] {
  const basis = SHARE_BASIS[pool.distribution_method];
  const weights = pool.participants.map((participant) => (basis === null ? 1 : participant[basis]!));
  const shares = splitPool(pool.total_cents, weights).map((shareCents, i) => ({
    ...pool.participants[i],
    share_cents: shareCents,
  }));
  const distributed = shares.reduce((sum, share) => sum + share.share_cents, 0);
  const { pool_id: poolId, merchant_id: merchantId } = pool;
  return [
    {
      type: 'TipPoolDistributed',
      data: {
        pool_id: poolId,
        merchant_id: merchantId,
        distribution_method: pool.distribution_method,
        total_cents: pool.total_cents,
        total_distributed_cents: distributed,
        rounding_adjustment_cents: distributed - pool.total_cents,
        shares,
        distributed_at: now,
      },
    },
    ...shares.map((share): TipPoolEvent => ({
      type: 'TipPoolSharePaid',
      data: {
        pool_id: poolId,
        merchant_id: merchantId,
        employee_id: share.employeeId,
        employee_name: share.employeeName,
        share_cents: share.share_cents,
        paid_at: now,
      },
    })),
  ];
}
