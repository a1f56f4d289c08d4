import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../../platform/identity/command-context';
import type { IdempotentRequest } from '../../platform/idempotency/idempotency';
import type { ApplyOverrideRequest } from './apply-override.request.dto';
import { ApplyOverrideResponse } from './apply-override.response.dto';

export class ApplyOverrideCommand extends Command<ApplyOverrideResponse> {
  constructor(
    readonly override: ApplyOverrideRequest,
    readonly context: CommandContext,
    readonly idempotency?: IdempotentRequest,
  ) {
    super();
  }
}
