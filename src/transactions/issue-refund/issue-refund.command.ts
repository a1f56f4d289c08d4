import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../../platform/identity/command-context';
import type { IdempotentRequest } from '../../platform/idempotency/idempotency';
import type { ReversalResponse } from '../reversal.response.dto';
import type { RefundRequest } from '../sale.commands';

export class IssueRefundCommand extends Command<ReversalResponse> {
  constructor(
    readonly request: RefundRequest,
    readonly context: CommandContext,
    readonly idempotency?: IdempotentRequest,
  ) {
    super();
  }
}
