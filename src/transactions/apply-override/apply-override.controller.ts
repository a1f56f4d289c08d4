import { Body, Controller, Post, UseInterceptors } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CorrelationId } from '../../auth/command-context';
import { CurrentPrincipal } from '../../auth/current-principal.decorator';
import type { Principal } from '../../auth/principal';
import { Roles } from '../../auth/roles.decorator';
import type { IdempotentRequest } from '../../common/idempotency';
import { CurrentIdempotentRequest, IdempotencyInterceptor } from '../../common/idempotency.interceptor';
import { ApplyOverrideCommand, type ApplyOverrideResponse } from './apply-override.command';
import { ApplyOverrideRequest } from './apply-override.request.dto';

@Controller()
export class ApplyOverrideController {
  constructor(private readonly commands: CommandBus) {}

  @Post('transaction/override')
  @Roles('merchant', 'partner')
  @UseInterceptors(IdempotencyInterceptor)
  apply(
    @Body() body: ApplyOverrideRequest,
    @CurrentPrincipal() principal: Principal,
    @CorrelationId() correlationId: string,
    @CurrentIdempotentRequest() idempotency: IdempotentRequest | undefined,
  ): Promise<ApplyOverrideResponse> {
    return this.commands.execute(new ApplyOverrideCommand(body, { principal, correlationId }, idempotency));
  }
}
