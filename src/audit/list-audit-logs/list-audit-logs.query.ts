import { Query } from '@nestjs/cqrs';
import type { ListAuditLogsRequest } from './list-audit-logs.request.dto';
import { ListAuditLogsResponse } from './list-audit-logs.response.dto';

export class ListAuditLogsQuery extends Query<ListAuditLogsResponse> {
  constructor(readonly request: ListAuditLogsRequest) {
    super();
  }
}
