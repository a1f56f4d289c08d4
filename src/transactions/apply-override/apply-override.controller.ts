import { Body, Controller, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentCommandContext, type CommandContext } from '../../platform/identity/command-context';
import { Roles } from '../../platform/identity/roles.decorator';
import type { IdempotentRequest } from '../../platform/idempotency/idempotency';
import { CurrentIdempotentRequest, Idempotent } from '../../platform/idempotency/idempotency.interceptor';
import { ApiErrors } from '../../platform/openapi/api-errors.decorator';
import { SALE_CHANGE_ERRORS } from '../transaction.errors';
import { ApplyOverrideCommand } from './apply-override.command';
import { ApplyOverrideResponse } from './apply-override.response.dto';
import { ApplyOverrideRequest } from './apply-override.request.dto';
import { AppendsToLog } from '../../platform/as-of-position';

@ApiTags('Transactions')
@Controller()
export class ApplyOverrideController {
  constructor(private readonly commands: CommandBus) {}

  @Post('transaction/override')
  @Roles('merchant', 'partner')
  @Idempotent()
  @AppendsToLog()
  @ApiOperation({
    operationId: 'overrideTransaction',
    summary: "Override a sale's cash total",
    description:
      "Records an override with the authorizing employee and a reason, in its own entry of the hash chain linked to the sale. The new cash total replaces the sale's `cash_total_cents` for settlement, and its delta moves by as much; " +
      "the sale's own calculation stays readable in `original_calculation`. A sale may be overridden again, but not once voided or refunded. Overrides count in the override report and the merchant's risk profile.",
  })
  @ApiCreatedResponse({
    type: ApplyOverrideResponse,
    description: 'The override record, and the sale now `overridden`',
  })
  @ApiErrors({
    404: SALE_CHANGE_ERRORS[404],
    409: {
      ...SALE_CHANGE_ERRORS[409],
      ALREADY_VOIDED: 'The sale has been voided',
      ALREADY_REFUNDED: 'The sale has refunds: an override would reprice what they settled',
    },
    422: {
      OVERRIDE_POLICY_VIOLATION:
        '`new_cash_total_cents` is outside the bounds: within `OVERRIDE_TOLERANCE_CENTS` (default 4) of the price either way for `customer-request` and `manager-discretion`, from 0 to the price plus that tolerance for `pricing-error` and `system-error` (the price of a split tender is its cash part)',
    },
  })
  apply(
    @Body() body: ApplyOverrideRequest,
    @CurrentCommandContext() context: CommandContext,
    @CurrentIdempotentRequest() idempotency: IdempotentRequest | undefined,
  ): Promise<ApplyOverrideResponse> {
    return this.commands.execute(new ApplyOverrideCommand(body, context, idempotency));
  }
}
