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
import { IssueRefundCommand } from './issue-refund.command';
import { IssueRefundRequest } from './issue-refund.request.dto';
import { AppendsToLog } from '../../platform/as-of-position';

@ApiTags('Transactions')
@Controller()
export class IssueRefundController {
  constructor(private readonly commands: CommandBus) {}

  @Post('transaction/refund')
  @Roles('merchant', 'partner')
  @Idempotent()
  @AppendsToLog()
  @ApiOperation({
    operationId: 'issueRefund',
    summary: 'Refund a sale in full or in part',
    description: [
      'Records a REFUND record linked to the sale, with negative amounts, appended to the hash chain; the sale becomes `partially_refunded`, then `refunded` once nothing is left. ' +
        "The amount is rounded under the sale's mode when the sale's cash was rounded, and the refund that hands back the rest returns exactly what is left, so a sale's refunds add up to it. " +
        'A split tender refunds its cash portion only; card and EBT go back through their own networks. ' +
        'A refund whose cash rounds to $0.00 is refused (422), and a partial refund takes at most what is left of the price.',
      "The normalization check verifies that the refund's rounding delta reverses the direction of the sale's. A failure never blocks the refund: the REFUND record is a `WARN` with the reason `REFUND_NORMALIZATION_FAILED`, and the check is in `reversal.normalization` and the audit log.",
    ].join('\n\n'),
  })
  @ApiCreatedResponse({ type: ReversalResponse, description: 'The REFUND record, and the sale after it' })
  @ApiErrors({
    404: SALE_CHANGE_ERRORS[404],
    409: {
      ...SALE_CHANGE_ERRORS[409],
      ALREADY_VOIDED: 'The sale has been voided: nothing is left to refund',
      REFUND_EXCEEDS_PAID:
        "`refund_amount` is more than the sale's `refundable_cents` (a sale's refunds never pass the cash it settled, nor its price plus `OVERRIDE_TOLERANCE_CENTS`), " +
        'or a partial refund is more than the part of the price not yet refunded (refund the rest of the cash at once instead)',
    },
    422: {
      REFUND_ROUNDS_TO_ZERO:
        "The refund's cash rounds to $0.00 under the sale's mode (1 or 2 cents to the nickel): it would hand back nothing; the message names the least amount that does",
    },
  })
  refund(
    @Body() body: IssueRefundRequest,
    @CurrentCommandContext() context: CommandContext,
    @CurrentIdempotentRequest() idempotency: IdempotentRequest | undefined,
  ): Promise<ReversalResponse> {
    return this.commands.execute(new IssueRefundCommand(body, context, idempotency));
  }
}
