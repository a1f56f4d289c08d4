import { Query } from '@nestjs/cqrs';
import type { AuditEntry } from './audit-entry';
import type { ListAuditLogsRequest } from './list-audit-logs.request.dto';

export interface ListAuditLogsResponse {
  entries: AuditEntry[];
  limit: number;
  /** Pass as `cursor` for the next page; null when no further entry matched at the time of the request. */
  next_cursor: number | null;
}

export class ListAuditLogsQuery extends Query<ListAuditLogsResponse> {
  constructor(readonly request: ListAuditLogsRequest) {
    super();
  }
}
