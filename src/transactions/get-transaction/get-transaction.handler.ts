import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { TransactionDirectory } from '../transaction-directory';
import { GetTransactionQuery, type GetTransactionResponse } from './get-transaction.query';

@QueryHandler(GetTransactionQuery)
export class GetTransactionHandler implements IQueryHandler<GetTransactionQuery, GetTransactionResponse> {
  constructor(private readonly transactions: TransactionDirectory) {}

  async execute({ transactionId, principal }: GetTransactionQuery): Promise<GetTransactionResponse> {
    return { success: true, transaction: await this.transactions.find(principal, transactionId) };
  }
}
