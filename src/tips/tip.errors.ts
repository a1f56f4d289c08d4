import { DomainError } from '../platform/errors/domain-error';

/** Unknown and another merchant's records get the same answer, so ids cannot be probed. */
export class TipRecordNotFoundError extends DomainError {
  constructor(what: 'Transaction' | 'Tip' | 'Tip pool', ids: string | readonly string[]) {
    const list = typeof ids === 'string' ? ids : ids.join(', ');
    super('NOT_FOUND', `${what} ${list} not found`, 404);
  }
}

/** A tip rides on a sale that stands: not on a VOID or REFUND record, nor on a voided or wholly refunded sale. */
export class NotATippableSaleError extends DomainError {
  constructor(transactionId: string, sale: { type: string; state: string }) {
    const what = sale.type === 'SALE' ? `a ${sale.state} sale` : `a ${sale.type} record`;
    super('NOT_A_COMPLETED_SALE', `Transaction ${transactionId} is ${what}: tips attach to completed sales only`, 409);
  }
}

/** Only reachable by an id clash, which the stream's expected revision 0 turns into a retry first. */
export class TipRecordExistsError extends DomainError {
  constructor(id: string) {
    super('TIP_RECORD_EXISTS', `${id} already exists`, 409);
  }
}

/** A tip belongs to one pool at most: pooling it twice would pay it out twice. */
export class TipAlreadyPooledError extends DomainError {
  constructor(pooled: readonly { tip_id: string; pool_id: string }[]) {
    super(
      'TIP_ALREADY_POOLED',
      `Already in a pool: ${pooled.map((t) => `${t.tip_id} (pool ${t.pool_id})`).join(', ')}`,
      409,
    );
  }
}

/** A pooled tip's amount is part of the pool's fixed total; changing it would change shares already promised. */
export class TipPooledError extends DomainError {
  constructor(tipId: string, poolId: string) {
    super('TIP_POOLED', `Tip ${tipId} is in pool ${poolId}; a pooled tip cannot be adjusted`, 409);
  }
}

export class TipAmountUnchangedError extends DomainError {
  constructor(tipId: string, cents: number) {
    super('TIP_AMOUNT_UNCHANGED', `Tip ${tipId} is already ${cents} cents`, 409);
  }
}

export class PoolAlreadyDistributedError extends DomainError {
  constructor(poolId: string) {
    super('POOL_ALREADY_DISTRIBUTED', `Tip pool ${poolId} has already been distributed`, 409);
  }
}

/** A tip changed between reading it and pooling it: the pool would hold a stale amount. */
export class PooledTipChangedError extends DomainError {
  constructor(tipId: string) {
    super('CONCURRENT_MODIFICATION', `Tip ${tipId} changed while this request was processed; retry it`, 409);
  }
}
