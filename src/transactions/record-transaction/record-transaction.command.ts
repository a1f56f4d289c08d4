import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../../platform/identity/command-context';
import type { IdempotentRequest } from '../../platform/idempotency/idempotency';
import type { RecordTransactionRequest } from './record-transaction.request.dto';
import { RecordTransactionResponse } from './record-transaction.response.dto';

export class RecordTransactionCommand extends Command<RecordTransactionResponse> {
  constructor(
    readonly sale: RecordTransactionRequest,
    readonly context: CommandContext,
    /** Present when the client sent an Idempotency-Key: the answer is recorded with the event. */
    readonly idempotency?: IdempotentRequest,
  ) {
    super();
  }
}
