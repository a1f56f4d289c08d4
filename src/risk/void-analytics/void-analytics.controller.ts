import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Roles } from '../../platform/identity/roles.decorator';
import { ApiDataAsOf } from '../../platform/read-replica/api-data-as-of.decorator';
import { PagedMerchantFilterRequest } from '../analytics-request.dto';
import { VoidAnalyticsQuery } from './void-analytics.query';
import { VoidAnalyticsResponse } from './void-analytics.response.dto';

@ApiTags('Risk and analytics')
@Controller()
export class VoidAnalyticsController {
  constructor(private readonly queries: QueryBus) {}

  @Get('analytics/voids')
  @Roles('admin', 'auditor')
  @ApiDataAsOf()
  @ApiOperation({
    operationId: 'getVoidAnalytics',
    summary: 'Void and refund counts, rates and amounts, and the results of the refund normalization checks',
    description:
      'Platform totals (or one merchant’s, with `merchant_id`), with the voids by hour, by reason and at shift changes, then ' +
      'a page of the merchants, highest void rate first. Amounts are positive integer cents. Rates are to 4 decimals, and ' +
      'null when there is nothing to divide by. Read from a read model that follows the log asynchronously (`as_of_position`).',
  })
  @ApiOkResponse({ type: VoidAnalyticsResponse, description: 'Void and refund rates, platform-wide and by merchant' })
  get(@Query() request: PagedMerchantFilterRequest): Promise<VoidAnalyticsResponse> {
    return this.queries.execute(new VoidAnalyticsQuery(request));
  }
}
