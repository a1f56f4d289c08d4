import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../../auth/command-context';
import type { IdempotentRequest } from '../../common/idempotency';
import type { SaleRequest } from '../transaction.decider';
import type { TransactionView } from '../transaction-view';

/** The spec's envelope for `POST /transaction`. */
export interface RecordTransactionResponse {
  success: true;
  transaction: TransactionView;
}

export class RecordTransactionCommand extends Command<RecordTransactionResponse> {
  constructor(
    readonly sale: SaleRequest,
    readonly context: CommandContext,
    /** Present when the client sent an Idempotency-Key: the answer is recorded with the event. */
    readonly idempotency?: IdempotentRequest,
  ) {
    super();
  }
}
