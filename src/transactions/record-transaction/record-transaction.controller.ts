import { Body, Controller, Post, UseInterceptors } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CorrelationId } from '../../auth/command-context';
import { CurrentPrincipal } from '../../auth/current-principal.decorator';
import type { Principal } from '../../auth/principal';
import { Roles } from '../../auth/roles.decorator';
import type { IdempotentRequest } from '../../common/idempotency';
import { CurrentIdempotentRequest, IdempotencyInterceptor } from '../../common/idempotency.interceptor';
import { RecordTransactionCommand, type RecordTransactionResponse } from './record-transaction.command';
import { RecordTransactionRequest } from './record-transaction.request.dto';

@Controller()
export class RecordTransactionController {
  constructor(private readonly commands: CommandBus) {}

  @Post('transaction')
  @Roles('merchant', 'partner')
  @UseInterceptors(IdempotencyInterceptor)
  record(
    @Body() body: RecordTransactionRequest,
    @CurrentPrincipal() principal: Principal,
    @CorrelationId() correlationId: string,
    @CurrentIdempotentRequest() idempotency: IdempotentRequest | undefined,
  ): Promise<RecordTransactionResponse> {
    return this.commands.execute(new RecordTransactionCommand(body, { principal, correlationId }, idempotency));
  }
}
