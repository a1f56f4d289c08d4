import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { TreeProofs } from '../../audit/tree-proofs';
import { TransactionDirectory } from '../transaction-directory';
import { GetReceiptQuery, type GetReceiptResponse } from './get-receipt.query';
import { receipt } from './receipt';

/** Built from the transaction-list read model on each read: a receipt is a rendering of the detail, not a record. */
@QueryHandler(GetReceiptQuery)
export class GetReceiptHandler implements IQueryHandler<GetReceiptQuery, GetReceiptResponse> {
  constructor(
    private readonly transactions: TransactionDirectory,
    private readonly proofs: TreeProofs,
  ) {}

  async execute({ transactionId, format, principal }: GetReceiptQuery): Promise<GetReceiptResponse> {
    const transaction = await this.transactions.find(principal, transactionId);
    const rendered = receipt(format, transaction);
    if (rendered.format !== 'audit') return { success: true, ...rendered };
    // docs/design.md: evidence a merchant can keep that its record is in the log.
    return {
      success: true,
      ...rendered,
      ...(await this.proofs.evidence(transaction.chain_position, transaction.auditHash)),
    };
  }
}
