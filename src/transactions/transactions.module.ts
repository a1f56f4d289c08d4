import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { AuthModule } from '../auth/auth.module';
import { MerchantsModule } from '../merchants/merchants.module';
import { CommandModule } from '../platform/command.module';
import { ApplyOverrideController } from './apply-override/apply-override.controller';
import { ApplyOverrideHandler } from './apply-override/apply-override.handler';
import { GetReceiptController } from './get-receipt/get-receipt.controller';
import { GetReceiptHandler } from './get-receipt/get-receipt.handler';
import { GetTransactionController } from './get-transaction/get-transaction.controller';
import { GetTransactionHandler } from './get-transaction/get-transaction.handler';
import { IssueRefundController } from './issue-refund/issue-refund.controller';
import { IssueRefundHandler } from './issue-refund/issue-refund.handler';
import { ListTransactionsController } from './list-transactions/list-transactions.controller';
import { ListTransactionsHandler } from './list-transactions/list-transactions.handler';
import { RecordTransactionController } from './record-transaction/record-transaction.controller';
import { RecordTransactionHandler } from './record-transaction/record-transaction.handler';
import { SaleChanges } from './sale-changes';
import { SaleInputsReader } from './read-model/sale-inputs';
import { RuleReadModelCheck } from './read-model/rule-read-models';
import { SetRoundingPolicyController } from './set-rounding-policy/set-rounding-policy.controller';
import { SetRoundingPolicyHandler } from './set-rounding-policy/set-rounding-policy.handler';
import { TransactionDirectory } from './transaction-directory';
import { VoidTransactionController } from './void-transaction/void-transaction.controller';
import { VoidTransactionHandler } from './void-transaction/void-transaction.handler';
import { VerifyTransactionsController } from './verify-transactions/verify-transactions.controller';
import { VerifyTransactionsHandler } from './verify-transactions/verify-transactions.handler';

/**
 * Sales (record, fetch, list), their overrides, voids and refunds, and receipts. A read by id answers
 * from the transaction-list read model (read-model/transaction-list.projector.ts) or, while it lags, from the log, so a GET sees the POST before it.
 */
@Module({
  imports: [AuthModule, CommandModule, AuditModule, MerchantsModule],
  controllers: [
    RecordTransactionController,
    GetTransactionController,
    ListTransactionsController,
    ApplyOverrideController,
    VoidTransactionController,
    IssueRefundController,
    GetReceiptController,
    SetRoundingPolicyController,
    VerifyTransactionsController,
  ],
  providers: [
    TransactionDirectory,
    SaleChanges,
    SaleInputsReader,
    RuleReadModelCheck,
    RecordTransactionHandler,
    GetTransactionHandler,
    ListTransactionsHandler,
    ApplyOverrideHandler,
    VoidTransactionHandler,
    IssueRefundHandler,
    GetReceiptHandler,
    SetRoundingPolicyHandler,
    VerifyTransactionsHandler,
  ],
})
export class TransactionsModule {}
