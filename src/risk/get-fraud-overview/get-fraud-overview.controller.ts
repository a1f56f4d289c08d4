import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Roles } from '../../platform/identity/roles.decorator';
import { ApiDataAsOf } from '../../platform/read-replica/api-data-as-of.decorator';
import { AnalyticsPageRequest } from '../analytics-request.dto';
import { GetFraudOverviewQuery } from './get-fraud-overview.query';
import { GetFraudOverviewResponse } from './get-fraud-overview.response.dto';

@ApiTags('Risk and analytics')
@Controller()
export class GetFraudOverviewController {
  constructor(private readonly queries: QueryBus) {}

  /** The spec: admin keys only. */
  @Get('admin/fraud-overview')
  @Roles('admin')
  @ApiDataAsOf()
  @ApiOperation({
    operationId: 'getFraudOverview',
    summary: 'Every merchant ranked by fraud score, riskiest first, with summary statistics',
    description:
      'Each onboarded merchant scored as its risk profile scores it. Ranked by score, highest first, so HIGH and CRITICAL ' +
      'merchants come first; ties by merchant id, so the order is stable across pages. `summary` covers every merchant, ' +
      'whatever the page. Read from read models that follow the log asynchronously (`as_of_position`).',
  })
  @ApiOkResponse({
    type: GetFraudOverviewResponse,
    description: 'Every merchant ranked by score, with the platform summary',
  })
  get(@Query() page: AnalyticsPageRequest): Promise<GetFraudOverviewResponse> {
    return this.queries.execute(new GetFraudOverviewQuery(page));
  }
}
