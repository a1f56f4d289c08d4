import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../../platform/identity/command-context';
import type { IdempotentRequest } from '../../platform/idempotency/idempotency';
import type { PayOutTipsRequest } from './pay-out-tips.request.dto';
import { PayOutTipsResponse } from './pay-out-tips.response.dto';

export class PayOutTipsCommand extends Command<PayOutTipsResponse> {
  constructor(
    readonly request: PayOutTipsRequest,
    readonly context: CommandContext,
    readonly idempotency?: IdempotentRequest,
  ) {
    super();
  }
}
