import { Body, Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentCommandContext, type CommandContext } from '../../platform/identity/command-context';
import type { IdempotentRequest } from '../../platform/idempotency/idempotency';
import { CurrentIdempotentRequest } from '../../platform/idempotency/idempotency.interceptor';
import { PayOutTipsCommand } from './pay-out-tips.command';
import { PayOutTipsResponse } from './pay-out-tips.response.dto';
import { PayOutTipsRequest } from './pay-out-tips.request.dto';
import { TipPost } from '../tip-route';

@Controller()
export class PayOutTipsController {
  constructor(private readonly commands: CommandBus) {}

  @TipPost('tip/payout')
  @ApiTags('Tips')
  @ApiOperation({
    operationId: 'payOutTips',
    summary: 'Record tips paid out to an employee',
    description:
      'A payout is not tied to particular tips: `GET /analytics/tip-wage-theft` weighs everything paid out to an employee against the tips (in no pool) ' +
      'due to them. `payout_amount` is in dollars; a fraction of a cent rounds up.',
  })
  @ApiCreatedResponse({ type: PayOutTipsResponse, description: 'The payout as recorded' })
  payOut(
    @Body() body: PayOutTipsRequest,
    @CurrentCommandContext() context: CommandContext,
    @CurrentIdempotentRequest() idempotency?: IdempotentRequest,
  ): Promise<PayOutTipsResponse> {
    return this.commands.execute(new PayOutTipsCommand(body, context, idempotency));
  }
}
