import { Body, Controller, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentCommandContext, type CommandContext } from '../../platform/identity/command-context';
import { Roles } from '../../platform/identity/roles.decorator';
import type { IdempotentRequest } from '../../platform/idempotency/idempotency';
import { CurrentIdempotentRequest, Idempotent } from '../../platform/idempotency/idempotency.interceptor';
import { RecordTransactionCommand } from './record-transaction.command';
import { RecordTransactionResponse } from './record-transaction.response.dto';
import { RecordTransactionRequest } from './record-transaction.request.dto';
import { AppendsToLog } from '../../platform/as-of-position';

@ApiTags('Transactions')
@Controller()
export class RecordTransactionController {
  constructor(private readonly commands: CommandBus) {}

  @Post('transaction')
  @Roles('merchant', 'partner')
  @Idempotent()
  @AppendsToLog()
  @ApiOperation({
    operationId: 'recordTransaction',
    summary: "Record a sale, its cash total rounded under the location's rule",
    description: [
      "The rule is resolved from `zip_code`, or from `state`, `county` and `city` (city, then county, then state, then the federal default), as in force on the sale's UTC date. " +
        'A ZIP not in the data, or no location at all, falls back to the federal default with a `WARN`.',
      'Only cash is rounded: card, mobile and EBT (7 CFR 278.2) never are, and in a split tender only the cash portion is. ' +
        'Tax is taken as sent, computed by the caller on the unrounded subtotal, and never recomputed.',
      "The sale is recorded whatever its compliance status (`PASS`, `WARN` or `FAIL`), with its fraud score and risk level, and appended to the hash chain; `auditHash` is its entry's hash. " +
        'The key must be allowed to act for `merchant_id` (else 403).',
    ].join('\n\n'),
  })
  @ApiCreatedResponse({ type: RecordTransactionResponse, description: 'The SALE record' })
  record(
    @Body() body: RecordTransactionRequest,
    @CurrentCommandContext() context: CommandContext,
    @CurrentIdempotentRequest() idempotency: IdempotentRequest | undefined,
  ): Promise<RecordTransactionResponse> {
    return this.commands.execute(new RecordTransactionCommand(body, context, idempotency));
  }
}
