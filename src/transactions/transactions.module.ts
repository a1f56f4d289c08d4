import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { IdempotencyModule } from '../common/idempotency.module';
import { GetTransactionController } from './get-transaction/get-transaction.controller';
import { GetTransactionHandler } from './get-transaction/get-transaction.handler';
import { ListTransactionsController } from './list-transactions/list-transactions.controller';
import { ListTransactionsHandler } from './list-transactions/list-transactions.handler';
import { RecordTransactionController } from './record-transaction/record-transaction.controller';
import { RecordTransactionHandler } from './record-transaction/record-transaction.handler';

/**
 * Sales: record (rounded, scored, chained), fetch and list. Reads come from the inline
 * transaction-list read model (projections/transaction-list), so a GET sees the POST before it.
 */
@Module({
  imports: [AuthModule, IdempotencyModule],
  controllers: [RecordTransactionController, GetTransactionController, ListTransactionsController],
  providers: [RecordTransactionHandler, GetTransactionHandler, ListTransactionsHandler],
})
export class TransactionsModule {}
