import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { Roles } from '../../auth/roles.decorator';
import { PagedMerchantFilterRequest } from '../analytics-request.dto';
import { VoidAnalyticsQuery, type VoidAnalyticsResponse } from './void-analytics.query';

@Controller()
export class VoidAnalyticsController {
  constructor(private readonly queries: QueryBus) {}

  @Get('analytics/voids')
  @Roles('admin', 'auditor')
  get(@Query() request: PagedMerchantFilterRequest): Promise<VoidAnalyticsResponse> {
    return this.queries.execute(new VoidAnalyticsQuery(request));
  }
}
