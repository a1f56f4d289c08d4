import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../../platform/identity/command-context';
import type { IdempotentRequest } from '../../platform/idempotency/idempotency';
import type { AdjustTipRequest } from './adjust-tip.request.dto';
import { AdjustTipResponse } from './adjust-tip.response.dto';

export class AdjustTipCommand extends Command<AdjustTipResponse> {
  constructor(
    readonly request: AdjustTipRequest,
    readonly context: CommandContext,
    readonly idempotency?: IdempotentRequest,
  ) {
    super();
  }
}
