import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../../platform/identity/command-context';
import type { IdempotentRequest } from '../../platform/idempotency/idempotency';
import type { CreateTipPoolRequest } from './create-tip-pool.request.dto';
import { CreateTipPoolResponse } from './create-tip-pool.response.dto';

export class CreateTipPoolCommand extends Command<CreateTipPoolResponse> {
  constructor(
    readonly request: CreateTipPoolRequest,
    readonly context: CommandContext,
    readonly idempotency?: IdempotentRequest,
  ) {
    super();
  }
}
