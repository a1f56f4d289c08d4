import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../../platform/identity/command-context';
import type { IdempotentRequest } from '../../platform/idempotency/idempotency';
import type { OverrideRequest } from '../sale.commands';
import { ApplyOverrideResponse } from './apply-override.response.dto';

export class ApplyOverrideCommand extends Command<ApplyOverrideResponse> {
  constructor(
    readonly override: OverrideRequest,
    readonly context: CommandContext,
    readonly idempotency?: IdempotentRequest,
  ) {
    super();
  }
}
