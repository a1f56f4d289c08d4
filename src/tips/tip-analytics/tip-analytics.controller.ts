import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Roles } from '../../platform/identity/roles.decorator';
import { ApiDataAsOf } from '../../platform/read-replica/api-data-as-of.decorator';
import { TipAnalyticsQuery } from './tip-analytics.query';
import { TipAnalyticsResponse } from '../tip-analytics.response.dto';
import { TipAnalyticsRequest } from './tip-analytics.request.dto';

@Controller()
export class TipAnalyticsController {
  constructor(private readonly queries: QueryBus) {}

  @Get('analytics/tips')
  @Roles('admin', 'auditor')
  @ApiDataAsOf()
  @ApiTags('Risk and analytics')
  @ApiOperation({
    operationId: 'getTipAnalytics',
    summary: 'Tip totals by method, averages, payouts and pool distribution summaries',
    description:
      'Read from the tips read model, which follows the log after the append (`min_position`). Tip amounts are after adjustments; averages are ' +
      'rounded to the nearest cent. `pools.recent` lists the newest `limit` pools; every total covers all of them. `tips_beyond_sale` flags the sales ' +
      'whose tips together are more than the sale itself and more than $20.00 (the newest `limit`, and how many in all).',
  })
  @ApiOkResponse({
    type: TipAnalyticsResponse,
    description: 'The totals, for the merchant asked for or for every merchant',
  })
  analytics(@Query() query: TipAnalyticsRequest): Promise<TipAnalyticsResponse> {
    return this.queries.execute(new TipAnalyticsQuery(query.merchant_id ?? null, query.limit, query.min_position));
  }
}
