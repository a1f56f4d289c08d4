import { Body, Controller, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentCommandContext, type CommandContext } from '../../platform/identity/command-context';
import { Roles } from '../../platform/identity/roles.decorator';
import type { IdempotentRequest } from '../../platform/idempotency/idempotency';
import { CurrentIdempotentRequest, Idempotent } from '../../platform/idempotency/idempotency.interceptor';
import { ApiErrors } from '../../platform/openapi/api-errors.decorator';
import { ReversalResponse } from '../reversal.response.dto';
import { SALE_CHANGE_ERRORS } from '../transaction.errors';
import { VoidTransactionCommand } from './void-transaction.command';
import { VoidTransactionRequest } from './void-transaction.request.dto';
import { AppendsToLog } from '../../platform/as-of-position';

@ApiTags('Transactions')
@Controller()
export class VoidTransactionController {
  constructor(private readonly commands: CommandBus) {}

  @Post('transaction/void')
  @Roles('merchant', 'partner')
  @Idempotent()
  @AppendsToLog()
  @ApiOperation({
    operationId: 'voidTransaction',
    summary: 'Void a sale',
    description: [
      'Records a VOID record that mirrors the sale as it settled (after any override) with negative amounts, so the rounding delta is reversed exactly; it is appended to the hash chain, linked to the sale, which becomes `voided`.',
      'The void policies are checked together, and a 422 names every one broken: the time limit (a sale older than 24 hours by default is refunded instead), ' +
        'the amount threshold (a cash total above $1,000.00 by default is never voided), and the reason (`customer_changed_mind` within 30 minutes of the sale by default; ' +
        "`employee_error` authorized by another employee than the sale's cashier). The limits are the deployment's configuration.",
    ].join('\n\n'),
  })
  @ApiCreatedResponse({ type: ReversalResponse, description: 'The VOID record, and the sale now `voided`' })
  @ApiErrors({
    404: SALE_CHANGE_ERRORS[404],
    409: {
      ...SALE_CHANGE_ERRORS[409],
      ALREADY_VOIDED: 'The sale has already been voided',
      ALREADY_REFUNDED: 'The sale has refunds: refund the rest instead',
    },
    422: {
      VOID_POLICY_VIOLATION:
        'The void breaks the time-limit, amount-threshold or reason policy; the message names each one broken',
    },
  })
  void(
    @Body() body: VoidTransactionRequest,
    @CurrentCommandContext() context: CommandContext,
    @CurrentIdempotentRequest() idempotency: IdempotentRequest | undefined,
  ): Promise<ReversalResponse> {
    return this.commands.execute(new VoidTransactionCommand(body, context, idempotency));
  }
}
