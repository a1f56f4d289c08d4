import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { ExportTransactionsController } from './export-transactions/export-transactions.controller';
import { ExportTransactionsHandler } from './export-transactions/export-transactions.handler';

/** `POST /export`: transactions as CSV for regulators, streamed from the transaction-list read model (docs/export.md). */
@Module({
  imports: [AuthModule],
  controllers: [ExportTransactionsController],
  providers: [ExportTransactionsHandler],
})
export class ExportModule {}
