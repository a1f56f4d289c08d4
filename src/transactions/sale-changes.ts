import { Injectable } from '@nestjs/common';
import { eventMetadata, type CommandContext } from '../platform/identity/command-context';
import { Clock } from '../platform/clock';
import { CommandStep } from '../platform/command-step';
import type { IdempotentRequest } from '../platform/idempotency/idempotency';
import type { AppendTx, StoredEvent } from '../platform/event-store/event-store.port';
import { claimRecordId, readTransaction } from './read-model/transaction-reads';
import { transactionDecider } from './transaction.decider';
import type { IssueRefund, TransactionCommand, VoidTransaction } from './sale.commands';
import { transactionStream } from './transaction.events';
import { TransactionDirectory } from './transaction-directory';
import { withNewTransactionId } from './transaction-id';
import { ReversalResponse } from './reversal.response.dto';
import { EntryPromises } from '../audit/entry-promises';
import type { EntryPromiseResponse } from '../audit/entry-promise.response.dto';

/** Overrides, voids and refunds: each is decided on the sale's own stream and answered from the log. */
@Injectable()
export class SaleChanges {
  constructor(
    private readonly transactions: TransactionDirectory,
    private readonly step: CommandStep,
    private readonly clock: Clock,
    private readonly promises: EntryPromises,
  ) {}

  /**
   * Appends what the decider makes of the command to the stream of the sale, once the key is shown
   * to see it (else 404). `answer` reads the sale's stream inside the append transaction, where the
   * entry is already in the log, so the response is what a GET will show; the idempotency record is
   * saved with it, with the signed promise of the appended entry.
   */
  async change<R>(
    saleId: string,
    context: CommandContext,
    idempotency: IdempotentRequest | undefined,
    command: TransactionCommand,
    answer: (tx: AppendTx, entry: StoredEvent) => Promise<R>,
  ): Promise<R & { promise: EntryPromiseResponse | null }> {
    const sale = await this.transactions.findSale(context.principal, saleId);
    const metadata = eventMetadata(context, sale.merchant_id);
    return this.step.run(
      { stream: transactionStream(sale.id), decider: transactionDecider, command, metadata, idempotency },
      async (tx, [entry]) => ({
        ...(await answer(tx, entry)),
        promise: this.promises.of(entry),
      }),
    );
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
      this.change(saleId, context, idempotency, command(transactionId, now.toISOString()), async (tx, entry) => {
        claimRecordId(tx, transactionId, entry.position);
        return {
          success: true as const,
          transaction: (await readTransaction(tx, transactionId))!,
          original: (await readTransaction(tx, saleId))!,
        };
      }),
    );
  }
}
