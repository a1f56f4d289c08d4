import { Body, Controller, Get, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { CommandContext } from '../auth/command-context';
import { Roles } from '../auth/roles.decorator';
import type { IdempotentRequest } from '../common/idempotency';
import { CurrentIdempotentRequest } from '../common/idempotency.interceptor';
import { AdjustTipCommand, type AdjustTipResponse } from './adjust-tip/adjust-tip.command';
import { AdjustTipRequest } from './adjust-tip/adjust-tip.request.dto';
import { CreateTipPoolCommand, type CreateTipPoolResponse } from './create-tip-pool/create-tip-pool.command';
import { CreateTipPoolRequest } from './create-tip-pool/create-tip-pool.request.dto';
import { DistributeTipPoolCommand, type DistributeTipPoolResponse } from './distribute-tip-pool/distribute-tip-pool.command';
import { DistributeTipPoolRequest } from './distribute-tip-pool/distribute-tip-pool.request.dto';
import { PayOutTipsCommand, type PayOutTipsResponse } from './pay-out-tips/pay-out-tips.command';
import { PayOutTipsRequest } from './pay-out-tips/pay-out-tips.request.dto';
import { RecordTipCommand, type RecordTipResponse } from './record-tip/record-tip.command';
import { RecordTipRequest } from './record-tip/record-tip.request.dto';
import { TipAnalyticsQuery, type TipAnalyticsResponse } from './tip-analytics/tip-analytics.query';
import { TipAnalyticsRequest } from './tip-analytics/tip-analytics.request.dto';
import { TipCommandContext, TipPost } from './tip-route';
import { TipWageTheftQuery, type TipWageTheftResponse } from './tip-wage-theft/tip-wage-theft.query';
import { TipWageTheftRequest } from './tip-wage-theft/tip-wage-theft.request.dto';
import { ValidateTipCreditCommand, type ValidateTipCreditResponse } from './validate-tip-credit/validate-tip-credit.command';
import { ValidateTipCreditRequest } from './validate-tip-credit/validate-tip-credit.request.dto';

/** Every tip route: writes for merchant and partner keys (TipPost), the analytics for admins and auditors. */
@Controller()
export class TipsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @TipPost('tip/cash')
  cash(
    @Body() body: RecordTipRequest,
    @TipCommandContext() context: CommandContext,
    @CurrentIdempotentRequest() idempotency?: IdempotentRequest,
  ): Promise<RecordTipResponse> {
    return this.commands.execute(new RecordTipCommand('cash', body, context, idempotency));
  }

  @TipPost('tip/credit-card')
  creditCard(
    @Body() body: RecordTipRequest,
    @TipCommandContext() context: CommandContext,
    @CurrentIdempotentRequest() idempotency?: IdempotentRequest,
  ): Promise<RecordTipResponse> {
    return this.commands.execute(new RecordTipCommand('credit_card', body, context, idempotency));
  }

  @TipPost('tip/adjust')
  adjust(
    @Body() body: AdjustTipRequest,
    @TipCommandContext() context: CommandContext,
    @CurrentIdempotentRequest() idempotency?: IdempotentRequest,
  ): Promise<AdjustTipResponse> {
    return this.commands.execute(new AdjustTipCommand(body, context, idempotency));
  }

  @TipPost('tip/payout')
  payOut(
    @Body() body: PayOutTipsRequest,
    @TipCommandContext() context: CommandContext,
    @CurrentIdempotentRequest() idempotency?: IdempotentRequest,
  ): Promise<PayOutTipsResponse> {
    return this.commands.execute(new PayOutTipsCommand(body, context, idempotency));
  }

  @TipPost('tip/pool/create')
  createPool(
    @Body() body: CreateTipPoolRequest,
    @TipCommandContext() context: CommandContext,
    @CurrentIdempotentRequest() idempotency?: IdempotentRequest,
  ): Promise<CreateTipPoolResponse> {
    return this.commands.execute(new CreateTipPoolCommand(body, context, idempotency));
  }

  @TipPost('tip/pool/distribute')
  distributePool(
    @Body() body: DistributeTipPoolRequest,
    @TipCommandContext() context: CommandContext,
    @CurrentIdempotentRequest() idempotency?: IdempotentRequest,
  ): Promise<DistributeTipPoolResponse> {
    return this.commands.execute(new DistributeTipPoolCommand(body, context, idempotency));
  }

  @TipPost('tip/validate-compliance')
  validateCompliance(
    @Body() body: ValidateTipCreditRequest,
    @TipCommandContext() context: CommandContext,
    @CurrentIdempotentRequest() idempotency?: IdempotentRequest,
  ): Promise<ValidateTipCreditResponse> {
    return this.commands.execute(new ValidateTipCreditCommand(body, context, idempotency));
  }

  @Get('analytics/tips')
  @Roles('admin', 'auditor')
  analytics(@Query() query: TipAnalyticsRequest): Promise<TipAnalyticsResponse> {
    return this.queries.execute(new TipAnalyticsQuery(query.merchant_id ?? null, query.limit));
  }

  @Get('analytics/tip-wage-theft')
  @Roles('admin', 'auditor')
  wageTheft(@Query() query: TipWageTheftRequest): Promise<TipWageTheftResponse> {
    return this.queries.execute(new TipWageTheftQuery(query.merchant_id ?? null));
  }
}
