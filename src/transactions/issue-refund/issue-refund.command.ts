import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../../platform/identity/command-context';
import type { IdempotentRequest } from '../../platform/idempotency/idempotency';
import type { ReversalResponse } from '../reversal.response.dto';
import type { IssueRefundRequest } from './issue-refund.request.dto';

export class IssueRefundCommand extends Command<ReversalResponse> {
  constructor(
    readonly request: IssueRefundRequest,
    readonly context: CommandContext,
    readonly idempotency?: IdempotentRequest,
  ) {
    super();
  }
}
