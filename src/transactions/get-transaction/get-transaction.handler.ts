import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { MerchantScope } from '../../auth/merchant-scope';
import { DomainError } from '../../common/errors/domain-error';
import { DATABASE, type Database } from '../../event-store/sql';
import { findTransaction } from '../../../projections/transaction-list/transaction-list.projector';
import { GetTransactionQuery, type GetTransactionResponse } from './get-transaction.query';

/** Another merchant's transaction is answered exactly like an unknown id, so ids cannot be probed. */
@QueryHandler(GetTransactionQuery)
export class GetTransactionHandler implements IQueryHandler<GetTransactionQuery, GetTransactionResponse> {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly scope: MerchantScope,
  ) {}

  async execute({ transactionId, principal }: GetTransactionQuery): Promise<GetTransactionResponse> {
    const transaction = await findTransaction(this.db, transactionId);
    if (!transaction || !(await this.scope.canSee(principal, transaction.merchant_id))) {
      throw new DomainError('NOT_FOUND', `Transaction ${transactionId} not found`, 404);
    }
    return { success: true, transaction };
  }
}
