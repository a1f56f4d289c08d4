import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { Roles } from '../../auth/roles.decorator';
import { PageRequest } from '../../common/page.request.dto';
import { GetFraudOverviewQuery, type GetFraudOverviewResponse } from './get-fraud-overview.query';

@Controller()
export class GetFraudOverviewController {
  constructor(private readonly queries: QueryBus) {}

  /** The spec: admin keys only. */
  @Get('admin/fraud-overview')
  @Roles('admin')
  get(@Query() page: PageRequest): Promise<GetFraudOverviewResponse> {
    return this.queries.execute(new GetFraudOverviewQuery(page));
  }
}
