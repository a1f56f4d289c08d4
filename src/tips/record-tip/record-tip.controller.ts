import { Body, Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentCommandContext, type CommandContext } from '../../platform/identity/command-context';
import type { IdempotentRequest } from '../../platform/idempotency/idempotency';
import { CurrentIdempotentRequest } from '../../platform/idempotency/idempotency.interceptor';
import { ApiErrors } from '../../platform/openapi/api-errors.decorator';
import { RecordTipCommand } from './record-tip.command';
import { RecordTipResponse } from './record-tip.response.dto';
import { RecordTipRequest } from './record-tip.request.dto';
import { TipPost } from '../tip-route';

const NO_SALE =
  'No sale with this transaction_id among those the key may see (another merchant’s sale is answered alike)';
const NOT_TIPPABLE =
  'The transaction is a VOID or REFUND record, or a voided or wholly refunded sale: tips attach to completed sales only';

@Controller()
export class RecordTipController {
  constructor(private readonly commands: CommandBus) {}

  @TipPost('tip/cash')
  @ApiTags('Tips')
  @ApiOperation({
    operationId: 'recordCashTip',
    summary: 'Record a cash tip on a sale',
    description:
      '`tip_amount` is in dollars; it is converted to integer cents as the decimal written, a fraction of a cent rounding up, in the employee’s favour. ' +
      'The tip is an entry of the audit chain (`auditHash`). The sale must be one the key may see: another merchant’s sale is answered like a missing one.',
  })
  @ApiCreatedResponse({ type: RecordTipResponse, description: 'The tip as recorded' })
  @ApiErrors({ 404: { NOT_FOUND: NO_SALE }, 409: { NOT_A_COMPLETED_SALE: NOT_TIPPABLE } })
  cash(
    @Body() body: RecordTipRequest,
    @CurrentCommandContext() context: CommandContext,
    @CurrentIdempotentRequest() idempotency?: IdempotentRequest,
  ): Promise<RecordTipResponse> {
    return this.commands.execute(new RecordTipCommand('cash', body, context, idempotency));
  }

  @TipPost('tip/credit-card')
  @ApiTags('Tips')
  @ApiOperation({
    operationId: 'recordCardTip',
    summary: 'Record a credit card tip on a sale',
    description:
      'As `POST /tip/cash`, with `method: credit_card`. `tip_amount` is in dollars; a fraction of a cent rounds up, in the employee’s favour (0.07 is 7 cents, 10.005 is 1001).',
  })
  @ApiCreatedResponse({ type: RecordTipResponse, description: 'The tip as recorded' })
  @ApiErrors({ 404: { NOT_FOUND: NO_SALE }, 409: { NOT_A_COMPLETED_SALE: NOT_TIPPABLE } })
  creditCard(
    @Body() body: RecordTipRequest,
    @CurrentCommandContext() context: CommandContext,
    @CurrentIdempotentRequest() idempotency?: IdempotentRequest,
  ): Promise<RecordTipResponse> {
    return this.commands.execute(new RecordTipCommand('credit_card', body, context, idempotency));
  }
}
