import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { Roles } from '../../auth/roles.decorator';
import { OverrideReportQuery, type OverrideReportResponse } from './override-report.query';
import { OverrideReportRequest } from './override-report.request.dto';

@Controller()
export class OverrideReportController {
  constructor(private readonly queries: QueryBus) {}

  @Get('overrides/report')
  @Roles('admin', 'auditor')
  get(@Query() request: OverrideReportRequest): Promise<OverrideReportResponse> {
    return this.queries.execute(new OverrideReportQuery(request));
  }
}
