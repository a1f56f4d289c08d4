import { Command } from '@nestjs/cqrs';
import { ApiProperty } from '@nestjs/swagger';
import type { CommandContext } from '../../platform/identity/command-context';
import type { IdempotentRequest } from '../../platform/idempotency/idempotency';
import { TipPoolView, TipSuccess } from '../tip-view';
import type { CreateTipPoolRequest } from './create-tip-pool.request.dto';

export class CreateTipPoolResponse {
  @TipSuccess()
  success: true;

  @ApiProperty({ type: TipPoolView })
  pool: TipPoolView;
}

export class CreateTipPoolCommand extends Command<CreateTipPoolResponse> {
  constructor(
    readonly request: CreateTipPoolRequest,
    readonly context: CommandContext,
    readonly idempotency?: IdempotentRequest,
  ) {
    super();
  }
}
