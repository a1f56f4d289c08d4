import { Command } from '@nestjs/cqrs';
import { ApiProperty } from '@nestjs/swagger';
import type { CommandContext } from '../../platform/identity/command-context';
import type { IdempotentRequest } from '../../platform/idempotency/idempotency';
import { TipDistributionView, TipSuccess } from '../tip-view';
import type { DistributeTipPoolRequest } from './distribute-tip-pool.request.dto';

/** The spec: "each participant's share and the total distributed". */
export class DistributeTipPoolResponse {
  @TipSuccess()
  success: true;

  @ApiProperty({ type: TipDistributionView, description: 'Each participant’s share and the total distributed' })
  distribution: TipDistributionView;
}

export class DistributeTipPoolCommand extends Command<DistributeTipPoolResponse> {
  constructor(
    readonly request: DistributeTipPoolRequest,
    readonly context: CommandContext,
    readonly idempotency?: IdempotentRequest,
  ) {
    super();
  }
}
