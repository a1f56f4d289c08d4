import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Roles } from '../../platform/identity/roles.decorator';
import { ApiDataAsOf } from '../../platform/read-replica/api-data-as-of.decorator';
import { OverrideReportQuery } from './override-report.query';
import { OverrideReportResponse } from './override-report.response.dto';
import { OverrideReportRequest } from './override-report.request.dto';

@ApiTags('Risk and analytics')
@Controller()
export class OverrideReportController {
  constructor(private readonly queries: QueryBus) {}

  @Get('overrides/report')
  @Roles('admin', 'auditor')
  @ApiDataAsOf()
  @ApiOperation({
    operationId: 'getOverrideReport',
    summary: 'Every override of a calculated cash total, with its employee, reason code and delta',
    description:
      'Each override with who made it, why, the calculated, previous and new cash totals, and the delta between the new and ' +
      'the calculated one (positive: the customer paid more than the calculation), oldest first, a page at a time; ' +
      '`summary` covers every override the filters match. The dates filter on `created_at`, both inclusive; an `end_date` ' +
      'before `start_date` is a 400. Read from a read model that follows the log asynchronously (`as_of_position`).',
  })
  @ApiOkResponse({ type: OverrideReportResponse, description: 'A page of overrides with their summary' })
  get(@Query() request: OverrideReportRequest): Promise<OverrideReportResponse> {
    return this.queries.execute(new OverrideReportQuery(request));
  }
}
