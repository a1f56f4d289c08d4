import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { TransactionDirectory } from '../transaction-directory';
import { GetTransactionQuery } from './get-transaction.query';
import type { GetTransactionResponse } from './get-transaction.response.dto';

@QueryHandler(GetTransactionQuery)
export class GetTransactionHandler implements IQueryHandler<GetTransactionQuery, GetTransactionResponse> {
  constructor(private readonly transactions: TransactionDirectory) {}

  async execute({ transactionId, principal }: GetTransactionQuery): Promise<GetTransactionResponse> {
    return { success: true, transaction: await this.transactions.find(principal, transactionId) };
  }
}
