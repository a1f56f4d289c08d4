import { Inject, Injectable } from '@nestjs/common';
import { MerchantScope } from '../auth';
import type { Principal } from '../platform/identity/principal';
import { DATABASE, type Database } from '../platform/event-store/sql';
import { findTransaction } from './read-model/transaction-list.projector';
import { NotASaleError, TransactionNotFoundError } from './transaction.errors';
import type { TransactionDetail } from './transaction.response.dto';

/** Transactions as a key may see them, from the inline transaction-list read model. */
@Injectable()
export class TransactionDirectory {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly scope: MerchantScope,
  ) {}

  /** Another merchant's transaction is answered exactly like an unknown id, so ids cannot be probed. */
  async find(principal: Principal, transactionId: string): Promise<TransactionDetail> {
    const transaction = await findTransaction(this.db, transactionId);
    if (!transaction || !(await this.scope.canSee(principal, transaction.merchant_id)))
      throw new TransactionNotFoundError(transactionId);
    return transaction;
  }

  /** What an override, a void or a refund applies to. */
  async findSale(principal: Principal, transactionId: string): Promise<TransactionDetail> {
    const transaction = await this.find(principal, transactionId);
    if (transaction.type !== 'SALE') throw new NotASaleError(transactionId, transaction.type);
    return transaction;
  }
}
