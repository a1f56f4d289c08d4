import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../../auth/command-context';
import type { IdempotentRequest } from '../../common/idempotency';
import type { TipDistributionView } from '../tip-view';
import type { DistributeTipPoolRequest } from './distribute-tip-pool.request.dto';

/** The spec: "each participant's share and the total distributed". */
export interface DistributeTipPoolResponse {
  success: true;
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
