import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Roles } from '../../platform/identity/roles.decorator';
import { ApiDataAsOf } from '../../platform/read-replica/api-data-as-of.decorator';
import { ListAuditLogsQuery } from './list-audit-logs.query';
import { ListAuditLogsResponse } from './list-audit-logs.response.dto';
import { ListAuditLogsRequest } from './list-audit-logs.request.dto';

@ApiTags('Audit')
@Controller()
export class ListAuditLogsController {
  constructor(private readonly queries: QueryBus) {}

  @Get('admin/audit-logs')
  @Roles('auditor', 'admin')
  @ApiDataAsOf()
  @ApiOperation({
    operationId: 'listAuditLogs',
    summary: 'List audit log entries, with their event details and chain hashes',
    description:
      'Read straight from the hash-linked log, in position order. Pages by cursor: pass the `next_cursor` of a page as `cursor` ' +
      'to get the next, so a page never skips or repeats an entry even while the log grows. The filters combine; the dates ' +
      'filter on `recorded_at`, both inclusive, and an `end_date` before `start_date` is a 400.',
  })
  @ApiOkResponse({
    type: ListAuditLogsResponse,
    description: 'A page of audit entries, oldest first, with the cursor of the next',
  })
  list(@Query() query: ListAuditLogsRequest): Promise<ListAuditLogsResponse> {
    return this.queries.execute(new ListAuditLogsQuery(query));
  }
}
