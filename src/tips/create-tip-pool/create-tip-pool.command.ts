import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../../auth/command-context';
import type { IdempotentRequest } from '../../common/idempotency';
import type { TipPoolView } from '../tip-view';
import type { CreateTipPoolRequest } from './create-tip-pool.request.dto';

export interface CreateTipPoolResponse {
  success: true;
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
