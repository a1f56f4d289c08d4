import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../../platform/identity/command-context';
import type { IdempotentRequest } from '../../platform/idempotency/idempotency';
import type { DistributeTipPoolRequest } from './distribute-tip-pool.request.dto';
import { DistributeTipPoolResponse } from './distribute-tip-pool.response.dto';

export class DistributeTipPoolCommand extends Command<DistributeTipPoolResponse> {
  constructor(
    readonly request: DistributeTipPoolRequest,
    readonly context: CommandContext,
    readonly idempotency?: IdempotentRequest,
  ) {
    super();
  }
}
