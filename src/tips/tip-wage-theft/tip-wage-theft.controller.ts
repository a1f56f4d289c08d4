import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { WAGE_THEFT_DETAILS, TipWageTheftResponse } from '../tip-wage-theft.response.dto';
import { Roles } from '../../platform/identity/roles.decorator';
import { ApiDataAsOf } from '../../platform/read-replica/api-data-as-of.decorator';
import { TipWageTheftQuery } from './tip-wage-theft.query';
import { TipWageTheftRequest } from './tip-wage-theft.request.dto';

@Controller()
export class TipWageTheftController {
  constructor(private readonly queries: QueryBus) {}

  @Get('analytics/tip-wage-theft')
  @Roles('admin', 'auditor')
  @ApiDataAsOf()
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
    return this.queries.execute(new TipWageTheftQuery(query.merchant_id ?? null, query.min_position));
  }
}
