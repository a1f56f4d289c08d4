import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { TransactionDirectory } from '../transaction-directory';
import { GetReceiptQuery, type GetReceiptResponse } from './get-receipt.query';
import { receipt } from './receipt';

/** Built from the transaction-list read model on each read: a receipt is a rendering of the detail, not a record. */
@QueryHandler(GetReceiptQuery)
export class GetReceiptHandler implements IQueryHandler<GetReceiptQuery, GetReceiptResponse> {
  constructor(private readonly transactions: TransactionDirectory) {}

  async execute({ transactionId, format, principal }: GetReceiptQuery): Promise<GetReceiptResponse> {
    return { success: true, ...receipt(format, await this.transactions.find(principal, transactionId)) };
  }
}
