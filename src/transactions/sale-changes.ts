import { Injectable } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { eventMetadata, type CommandContext } from '../platform/identity/command-context';
import { Clock } from '../platform/clock';
import { CommandStep } from '../platform/command-step';
import type { IdempotentRequest } from '../platform/idempotency/idempotency';
import type { Sql } from '../platform/event-store/sql';
import { findTransaction } from './read-model/transaction-list.projector';
import { transactionDecider } from './transaction.decider';
import { type IssueRefund, type TransactionCommand, type VoidTransaction } from './sale.commands';
import { transactionStream } from './transaction.events';
import { TransactionDirectory } from './transaction-directory';
import { withNewTransactionId } from './transaction-id';
import { TransactionDetail } from './transaction.response.dto';

/** `POST /transaction/void` and `/refund`: the new VOID or REFUND record, and the sale as it stands after it. */
export class ReversalResponse {
  @ApiProperty({ type: 'boolean', enum: [true], example: true })
  success: true;

  @ApiProperty({ type: TransactionDetail, description: 'The new VOID or REFUND record, with negative amounts' })
  transaction: TransactionDetail;

  @ApiProperty({ type: TransactionDetail, description: 'The sale as it stands after it: `voided`, `partially_refunded` or `refunded`' })
  original: TransactionDetail;
}

/** Overrides, voids and refunds: each is decided on the sale's own stream and answered from the read model. */
@Injectable()
export class SaleChanges {
  constructor(
    private readonly transactions: TransactionDirectory,
    private readonly step: CommandStep,
    private readonly clock: Clock,
  ) {}

  /**
   * Appends what the decider makes of the command to the stream of the sale, once the key is shown
   * to see it (else 404). `answer` reads the read model inside the append transaction, after the
   * inline projector wrote it, so the response is what a GET will show; the idempotency record is
   * saved with it.
   */
  async change<R>(
    saleId: string,
    context: CommandContext,
    idempotency: IdempotentRequest | undefined,
    command: TransactionCommand,
    answer: (tx: Sql) => Promise<R>,
  ): Promise<R> {
    const sale = await this.transactions.findSale(context.principal, saleId);
    const metadata = eventMetadata(context, sale.merchant_id);
    return this.step.run({ stream: transactionStream(sale.id), decider: transactionDecider, command, metadata, idempotency }, answer);
  }

  /** A void or a refund: a record with an id of its own, drawn again in the rare case it is taken. */
  reverse(
    saleId: string,
    context: CommandContext,
    idempotency: IdempotentRequest | undefined,
    command: (transactionId: string, now: string) => VoidTransaction | IssueRefund,
  ): Promise<ReversalResponse> {
    const now = this.clock.now();
    return withNewTransactionId(now, (transactionId) =>
      this.change(saleId, context, idempotency, command(transactionId, now.toISOString()), async (tx) => ({
        success: true as const,
        transaction: (await findTransaction(tx, transactionId))!,
        original: (await findTransaction(tx, saleId))!,
      })),
    );
  }
}
