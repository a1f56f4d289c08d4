import { Body, Controller, Get, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiCreatedResponse, ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { WAGE_THEFT_DETAILS } from './tip-wage-theft/tip-wage-theft.response.dto';
import { CurrentCommandContext, type CommandContext } from '../platform/identity/command-context';
import { Roles } from '../platform/identity/roles.decorator';
import type { IdempotentRequest } from '../platform/idempotency/idempotency';
import { CurrentIdempotentRequest } from '../platform/idempotency/idempotency.interceptor';
import { ApiErrors } from '../platform/openapi/api-errors.decorator';
import { AdjustTipCommand, AdjustTipResponse } from './adjust-tip/adjust-tip.command';
import { AdjustTipRequest } from './adjust-tip/adjust-tip.request.dto';
import { CreateTipPoolCommand, CreateTipPoolResponse } from './create-tip-pool/create-tip-pool.command';
import { CreateTipPoolRequest } from './create-tip-pool/create-tip-pool.request.dto';
import { DistributeTipPoolCommand, DistributeTipPoolResponse } from './distribute-tip-pool/distribute-tip-pool.command';
import { DistributeTipPoolRequest } from './distribute-tip-pool/distribute-tip-pool.request.dto';
import { PayOutTipsCommand, PayOutTipsResponse } from './pay-out-tips/pay-out-tips.command';
import { PayOutTipsRequest } from './pay-out-tips/pay-out-tips.request.dto';
import { RecordTipCommand, RecordTipResponse } from './record-tip/record-tip.command';
import { RecordTipRequest } from './record-tip/record-tip.request.dto';
import { TipAnalyticsQuery, TipAnalyticsResponse } from './tip-analytics/tip-analytics.query';
import { TipAnalyticsRequest } from './tip-analytics/tip-analytics.request.dto';
import { TipPost } from './tip-route';
import { TipWageTheftQuery, TipWageTheftResponse } from './tip-wage-theft/tip-wage-theft.query';
import { TipWageTheftRequest } from './tip-wage-theft/tip-wage-theft.request.dto';
import { ValidateTipCreditCommand, ValidateTipCreditResponse } from './validate-tip-credit/validate-tip-credit.command';
import { ValidateTipCreditRequest } from './validate-tip-credit/validate-tip-credit.request.dto';

const NO_SALE = 'No sale with this transaction_id among those the key may see (another merchant’s sale is answered alike)';
const ID_CLASH = 'Practically never: the new record’s random id was already taken; retry the request';
const NOT_TIPPABLE = 'The transaction is a VOID or REFUND record, or a voided sale: tips attach to completed sales only';

/** Every tip route: writes for merchant and partner keys (TipPost), the analytics for admins and auditors. */
@Controller()
export class TipsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

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
  @ApiErrors({ 404: { NOT_FOUND: NO_SALE }, 409: { NOT_A_COMPLETED_SALE: NOT_TIPPABLE, TIP_RECORD_EXISTS: ID_CLASH } })
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
  @ApiErrors({ 404: { NOT_FOUND: NO_SALE }, 409: { NOT_A_COMPLETED_SALE: NOT_TIPPABLE, TIP_RECORD_EXISTS: ID_CLASH } })
  creditCard(
    @Body() body: RecordTipRequest,
    @CurrentCommandContext() context: CommandContext,
    @CurrentIdempotentRequest() idempotency?: IdempotentRequest,
  ): Promise<RecordTipResponse> {
    return this.commands.execute(new RecordTipCommand('credit_card', body, context, idempotency));
  }

  @TipPost('tip/adjust')
  @ApiTags('Tips')
  @ApiOperation({
    operationId: 'adjustTip',
    summary: 'Change the amount of a tip, with a reason',
    description:
      'Records an adjustment (a record and an audit entry of its own) and answers the tip as it now stands, with its history. `new_amount` is in dollars; ' +
      'a fraction of a cent rounds up; 0 records a tip charged back in full. A tip in a pool cannot be adjusted. Every downward adjustment is a flag of ' +
      '`GET /analytics/tip-wage-theft`.',
  })
  @ApiCreatedResponse({ type: AdjustTipResponse, description: 'The adjustment, and the tip at its new amount' })
  @ApiErrors({
    404: { NOT_FOUND: 'No tip with this tip_id among those the key may see (another merchant’s tip is answered alike)' },
    409: {
      TIP_POOLED: 'The tip is in a pool: its amount is part of the pool’s fixed total',
      TIP_AMOUNT_UNCHANGED: 'The tip already has this amount',
      CONCURRENT_MODIFICATION: 'The tip kept changing while this request was processed; retry it',
    },
  })
  adjust(
    @Body() body: AdjustTipRequest,
    @CurrentCommandContext() context: CommandContext,
    @CurrentIdempotentRequest() idempotency?: IdempotentRequest,
  ): Promise<AdjustTipResponse> {
    return this.commands.execute(new AdjustTipCommand(body, context, idempotency));
  }

  @TipPost('tip/payout')
  @ApiTags('Tips')
  @ApiOperation({
    operationId: 'payOutTips',
    summary: 'Record tips paid out to an employee',
    description:
      'A payout is not tied to particular tips: `GET /analytics/tip-wage-theft` weighs everything paid out to an employee against the tips (in no pool) ' +
      'due to them. `payout_amount` is in dollars; a fraction of a cent rounds up.',
  })
  @ApiCreatedResponse({ type: PayOutTipsResponse, description: 'The payout as recorded' })
  @ApiErrors({ 409: { TIP_RECORD_EXISTS: ID_CLASH } })
  payOut(
    @Body() body: PayOutTipsRequest,
    @CurrentCommandContext() context: CommandContext,
    @CurrentIdempotentRequest() idempotency?: IdempotentRequest,
  ): Promise<PayOutTipsResponse> {
    return this.commands.execute(new PayOutTipsCommand(body, context, idempotency));
  }

  @TipPost('tip/pool/create')
  @ApiTags('Tips')
  @ApiOperation({
    operationId: 'createTipPool',
    summary: 'Pool tips to share among participants',
    description:
      'The tips go in at their current amounts, which are fixed from then on: a pooled tip cannot be adjusted, and a tip is in one pool at most. ' +
      'A participant sends `weight` in a `weighted` pool, `hours` in an `hours_based` one, neither in an `equal` one; anything else, or an employee listed twice, ' +
      'is a 400 naming the field. The pool is open until `POST /tip/pool/distribute`.',
  })
  @ApiCreatedResponse({ type: CreateTipPoolResponse, description: 'The pool, open' })
  @ApiErrors({
    404: { NOT_FOUND: 'Tips not found among the merchant’s (another merchant’s tips are answered alike); the message names them' },
    409: {
      TIP_ALREADY_POOLED: 'A tip is already in a pool; the message names it and its pool',
      CONCURRENT_MODIFICATION: 'A tip was adjusted while this request was processed; retry it',
      TIP_RECORD_EXISTS: ID_CLASH,
    },
  })
  createPool(
    @Body() body: CreateTipPoolRequest,
    @CurrentCommandContext() context: CommandContext,
    @CurrentIdempotentRequest() idempotency?: IdempotentRequest,
  ): Promise<CreateTipPoolResponse> {
    return this.commands.execute(new CreateTipPoolCommand(body, context, idempotency));
  }

  @TipPost('tip/pool/distribute')
  @ApiTags('Tips')
  @ApiOperation({
    operationId: 'distributeTipPool',
    summary: 'Distribute a pool: each participant’s share and the total distributed',
    description:
      'Once per pool. Share i is the exact `total × weightᵢ / Σweights` (weight 1 each in an equal pool, hours in an hours-based one), rounded up to the cent ' +
      'in the employee’s favour: the shares can sum to more than the pool, by under a cent per share, and `rounding_adjustment_cents` says what the employer adds. ' +
      'Each share is paid as an audit entry of its own.',
  })
  @ApiCreatedResponse({ type: DistributeTipPoolResponse, description: 'The distribution' })
  @ApiErrors({
    404: { NOT_FOUND: 'No pool with this pool_id among those the key may see (another merchant’s pool is answered alike)' },
    409: { POOL_ALREADY_DISTRIBUTED: 'The pool has already been distributed' },
  })
  distributePool(
    @Body() body: DistributeTipPoolRequest,
    @CurrentCommandContext() context: CommandContext,
    @CurrentIdempotentRequest() idempotency?: IdempotentRequest,
  ): Promise<DistributeTipPoolResponse> {
    return this.commands.execute(new DistributeTipPoolCommand(body, context, idempotency));
  }

  @TipPost('tip/validate-compliance')
  @ApiTags('Tips')
  @ApiOperation({
    operationId: 'checkTipCredit',
    summary: 'Check a wage and average tips against FLSA and the state’s tip credit rules',
    description:
      'FLSA: the cash wage must reach the tipped minimum cash wage, and the wage plus tips the minimum wage. The state: where it bans the tip credit, the cash ' +
      'wage alone must reach its minimum wage; otherwise its tipped minimum cash wage, and wage plus tips its minimum wage. A figure missing from the seed data ' +
      'is a requirement not checked, said in `notes`. Amounts are dollars an hour; a fraction of a cent is dropped, so that it can never carry a wage over a minimum. ' +
      'The check is recorded in the audit chain; a wage plus tips under the federal minimum is a flag of `GET /analytics/tip-wage-theft`.',
  })
  @ApiCreatedResponse({ type: ValidateTipCreditResponse, description: 'The check: compliant or not, and which requirement failed' })
  @ApiErrors({ 409: { TIP_RECORD_EXISTS: ID_CLASH } })
  validateCompliance(
    @Body() body: ValidateTipCreditRequest,
    @CurrentCommandContext() context: CommandContext,
    @CurrentIdempotentRequest() idempotency?: IdempotentRequest,
  ): Promise<ValidateTipCreditResponse> {
    return this.commands.execute(new ValidateTipCreditCommand(body, context, idempotency));
  }

  @Get('analytics/tips')
  @Roles('admin', 'auditor')
  @ApiTags('Risk and analytics')
  @ApiOperation({
    operationId: 'getTipAnalytics',
    summary: 'Tip totals by method, averages, payouts and pool distribution summaries',
    description:
      'Read from the tips read model, which is updated in the same transaction as each tip operation. Tip amounts are after adjustments; averages are ' +
      'rounded to the nearest cent. `pools.recent` lists the newest `limit` pools; every total covers all of them.',
  })
  @ApiOkResponse({ type: TipAnalyticsResponse, description: 'The totals, for the merchant asked for or for every merchant' })
  analytics(@Query() query: TipAnalyticsRequest): Promise<TipAnalyticsResponse> {
    return this.queries.execute(new TipAnalyticsQuery(query.merchant_id ?? null, query.limit));
  }

  @Get('analytics/tip-wage-theft')
  @Roles('admin', 'auditor')
  @ApiTags('Risk and analytics')
  @ApiOperation({
    operationId: 'getTipWageTheft',
    summary: 'Flags of tip skimming, unauthorized deductions and pay under the federal minimum wage',
    description:
      'Each flag names the records behind it with their audit hashes. Downward tip adjustments and tip-credit checks under the federal minimum are flagged at ' +
      'once; an employee paid out less than their tips (in no pool) recorded before `due_before`, and a pool still open after it, once the grace period ' +
      '(`payout_grace_days`) has passed. A distributed pool that paid fewer people than put tips in is flagged at once.',
  })
  @ApiOkResponse({ type: TipWageTheftResponse, description: 'The flags, each with the records behind it' })
  @ApiExtraModels(...WAGE_THEFT_DETAILS)
  wageTheft(@Query() query: TipWageTheftRequest): Promise<TipWageTheftResponse> {
    return this.queries.execute(new TipWageTheftQuery(query.merchant_id ?? null));
  }
}
