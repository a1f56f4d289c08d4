import { Body, Controller, Post, UseInterceptors } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CorrelationId } from '../../auth/command-context';
import { CurrentPrincipal } from '../../auth/current-principal.decorator';
import type { Principal } from '../../auth/principal';
import { Roles } from '../../auth/roles.decorator';
import type { IdempotentRequest } from '../../common/idempotency';
import { CurrentIdempotentRequest, IdempotencyInterceptor } from '../../common/idempotency.interceptor';
import type { ReversalResponse } from '../sale-changes';
import { IssueRefundCommand } from './issue-refund.command';
import { IssueRefundRequest } from './issue-refund.request.dto';

@Controller()
export class IssueRefundController {
  constructor(private readonly commands: CommandBus) {}

  @Post('transaction/refund')
  @Roles('merchant', 'partner')
  @UseInterceptors(IdempotencyInterceptor)
  refund(
    @Body() body: IssueRefundRequest,
    @CurrentPrincipal() principal: Principal,
    @CorrelationId() correlationId: string,
    @CurrentIdempotentRequest() idempotency: IdempotentRequest | undefined,
  ): Promise<ReversalResponse> {
    return this.commands.execute(new IssueRefundCommand(body, { principal, correlationId }, idempotency));
  }
}
