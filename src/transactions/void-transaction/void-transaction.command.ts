import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../../platform/identity/command-context';
import type { IdempotentRequest } from '../../platform/idempotency/idempotency';
import type { ReversalResponse } from '../reversal.response.dto';
import type { VoidTransactionRequest } from './void-transaction.request.dto';

export class VoidTransactionCommand extends Command<ReversalResponse> {
  constructor(
    readonly request: VoidTransactionRequest,
    readonly context: CommandContext,
    readonly idempotency?: IdempotentRequest,
  ) {
    super();
  }
}
