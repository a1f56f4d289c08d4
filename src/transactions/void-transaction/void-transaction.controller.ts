import { Body, Controller, Post, UseInterceptors } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CorrelationId } from '../../auth/command-context';
import { CurrentPrincipal } from '../../auth/current-principal.decorator';
import type { Principal } from '../../auth/principal';
import { Roles } from '../../auth/roles.decorator';
import type { IdempotentRequest } from '../../common/idempotency';
import { CurrentIdempotentRequest, IdempotencyInterceptor } from '../../common/idempotency.interceptor';
import type { ReversalResponse } from '../sale-changes';
import { VoidTransactionCommand } from './void-transaction.command';
import { VoidTransactionRequest } from './void-transaction.request.dto';

@Controller()
export class VoidTransactionController {
  constructor(private readonly commands: CommandBus) {}

  @Post('transaction/void')
  @Roles('merchant', 'partner')
  @UseInterceptors(IdempotencyInterceptor)
  void(
    @Body() body: VoidTransactionRequest,
    @CurrentPrincipal() principal: Principal,
    @CorrelationId() correlationId: string,
    @CurrentIdempotentRequest() idempotency: IdempotentRequest | undefined,
  ): Promise<ReversalResponse> {
    return this.commands.execute(new VoidTransactionCommand(body, { principal, correlationId }, idempotency));
  }
}
