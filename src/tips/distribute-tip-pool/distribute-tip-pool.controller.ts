import { Body, Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentCommandContext, type CommandContext } from '../../platform/identity/command-context';
import type { IdempotentRequest } from '../../platform/idempotency/idempotency';
import { CurrentIdempotentRequest } from '../../platform/idempotency/idempotency.interceptor';
import { ApiErrors } from '../../platform/openapi/api-errors.decorator';
import { DistributeTipPoolCommand } from './distribute-tip-pool.command';
import { DistributeTipPoolResponse } from './distribute-tip-pool.response.dto';
import { DistributeTipPoolRequest } from './distribute-tip-pool.request.dto';
import { TipPost } from '../tip-route';

@Controller()
export class DistributeTipPoolController {
  constructor(private readonly commands: CommandBus) {}

  @TipPost('tip/pool/distribute')
  @ApiTags('Tips')
  @ApiOperation({
    operationId: 'distributeTipPool',
    summary: 'Distribute a pool: each participant’s share and the total distributed',
    description:
      'Once per pool. Share i is the exact `total × weightᵢ / Σweights` (weight 1 each in an equal pool, hours in an hours-based one), rounded up to the cent ' +
      'in the employee’s favour: the shares can sum to more than the pool, by under a cent per share, and `rounding_adjustment_cents` says what the employer adds. ' +
      'Each share is paid as an audit entry of its own.',
  })
  @ApiCreatedResponse({ type: DistributeTipPoolResponse, description: 'The distribution' })
  @ApiErrors({
    404: {
      NOT_FOUND: 'No pool with this pool_id among those the key may see (another merchant’s pool is answered alike)',
    },
    409: { POOL_ALREADY_DISTRIBUTED: 'The pool has already been distributed' },
  })
  distributePool(
    @Body() body: DistributeTipPoolRequest,
    @CurrentCommandContext() context: CommandContext,
    @CurrentIdempotentRequest() idempotency?: IdempotentRequest,
  ): Promise<DistributeTipPoolResponse> {
    return this.commands.execute(new DistributeTipPoolCommand(body, context, idempotency));
  }
}
