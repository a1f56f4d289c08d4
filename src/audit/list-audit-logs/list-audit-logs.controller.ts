import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { Roles } from '../../auth/roles.decorator';
import { ListAuditLogsQuery, type ListAuditLogsResponse } from './list-audit-logs.query';
import { ListAuditLogsRequest } from './list-audit-logs.request.dto';

@Controller()
export class ListAuditLogsController {
  constructor(private readonly queries: QueryBus) {}

  @Get('admin/audit-logs')
  @Roles('auditor', 'admin')
  list(@Query() query: ListAuditLogsRequest): Promise<ListAuditLogsResponse> {
    return this.queries.execute(new ListAuditLogsQuery(query));
  }
}
