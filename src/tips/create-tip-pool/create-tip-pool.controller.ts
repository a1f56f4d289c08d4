import { Body, Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentCommandContext, type CommandContext } from '../../platform/identity/command-context';
import type { IdempotentRequest } from '../../platform/idempotency/idempotency';
import { CurrentIdempotentRequest } from '../../platform/idempotency/idempotency.interceptor';
import { ApiErrors } from '../../platform/openapi/api-errors.decorator';
import { CreateTipPoolCommand } from './create-tip-pool.command';
import { CreateTipPoolResponse } from './create-tip-pool.response.dto';
import { CreateTipPoolRequest } from './create-tip-pool.request.dto';
import { TipPost, TIPS_NOT_CAUGHT_UP } from '../tip-route';

@Controller()
export class CreateTipPoolController {
  constructor(private readonly commands: CommandBus) {}

  @TipPost('tip/pool/create')
  @ApiTags('Tips')
  @ApiOperation({
    operationId: 'createTipPool',
    summary: 'Pool tips to share among participants',
    description:
      'The tips go in at their current amounts, which are fixed from then on: a pooled tip cannot be adjusted, and a tip is in one pool at most. ' +
      'A participant sends `weight` in a `weighted` pool, `hours` in an `hours_based` one, neither in an `equal` one; anything else, or an employee listed twice, ' +
      'is a 400 naming the field. The pool is open until `POST /tip/pool/distribute`.',
  })
  @ApiCreatedResponse({ type: CreateTipPoolResponse, description: 'The pool, open' })
  @ApiErrors({
    404: {
      NOT_FOUND:
        'Tips not found among the merchant’s (another merchant’s tips are answered alike); the message names them',
    },
    409: {
      TIP_ALREADY_POOLED: 'A tip is already in a pool; the message names it and its pool',
      CONCURRENT_MODIFICATION: 'A tip was adjusted while this request was processed; retry it',
    },
    503: { LOG_POSITION_NOT_REACHED: TIPS_NOT_CAUGHT_UP },
  })
  createPool(
    @Body() body: CreateTipPoolRequest,
    @CurrentCommandContext() context: CommandContext,
    @CurrentIdempotentRequest() idempotency?: IdempotentRequest,
  ): Promise<CreateTipPoolResponse> {
    return this.commands.execute(new CreateTipPoolCommand(body, context, idempotency));
  }
}
