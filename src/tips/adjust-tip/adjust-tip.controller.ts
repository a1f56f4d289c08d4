import { Body, Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentCommandContext, type CommandContext } from '../../platform/identity/command-context';
import type { IdempotentRequest } from '../../platform/idempotency/idempotency';
import { CurrentIdempotentRequest } from '../../platform/idempotency/idempotency.interceptor';
import { ApiErrors } from '../../platform/openapi/api-errors.decorator';
import { AdjustTipCommand } from './adjust-tip.command';
import { AdjustTipResponse } from './adjust-tip.response.dto';
import { AdjustTipRequest } from './adjust-tip.request.dto';
import { TipPost, TIPS_NOT_CAUGHT_UP } from '../tip-route';

@Controller()
export class AdjustTipController {
  constructor(private readonly commands: CommandBus) {}

  @TipPost('tip/adjust')
  @ApiTags('Tips')
  @ApiOperation({
    operationId: 'adjustTip',
    summary: 'Change the amount of a tip, with a reason',
    description:
      'Records an adjustment (a record and an audit entry of its own) and answers the tip as it now stands, with its history. `new_amount` is in dollars; ' +
      'a fraction of a cent rounds up; 0 records a tip charged back in full. A tip in a pool cannot be adjusted. Every downward adjustment is a flag of ' +
      '`GET /analytics/tip-wage-theft`.',
  })
  @ApiCreatedResponse({ type: AdjustTipResponse, description: 'The adjustment, and the tip at its new amount' })
  @ApiErrors({
    404: {
      NOT_FOUND: 'No tip with this tip_id among those the key may see (another merchant’s tip is answered alike)',
    },
    409: {
      TIP_POOLED: 'The tip is in a pool: its amount is part of the pool’s fixed total',
      TIP_AMOUNT_UNCHANGED: 'The tip already has this amount',
      NOT_A_COMPLETED_SALE:
        'The tip’s sale was voided or wholly refunded: a tip is adjusted only while its sale stands',
      CONCURRENT_MODIFICATION: 'The tip kept changing while this request was processed; retry it',
    },
    503: { LOG_POSITION_NOT_REACHED: TIPS_NOT_CAUGHT_UP },
  })
  adjust(
    @Body() body: AdjustTipRequest,
    @CurrentCommandContext() context: CommandContext,
    @CurrentIdempotentRequest() idempotency?: IdempotentRequest,
  ): Promise<AdjustTipResponse> {
    return this.commands.execute(new AdjustTipCommand(body, context, idempotency));
  }
}
