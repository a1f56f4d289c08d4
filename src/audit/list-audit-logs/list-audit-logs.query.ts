import { Query } from '@nestjs/cqrs';
import { ApiProperty } from '@nestjs/swagger';
import { AuditEntry } from './audit-entry';
import type { ListAuditLogsRequest } from './list-audit-logs.request.dto';

export class ListAuditLogsResponse {
  @ApiProperty({ type: [AuditEntry], description: 'In position order, oldest first' })
  entries: AuditEntry[];

  @ApiProperty({ type: 'integer', description: 'The `limit` applied', example: 100 })
  limit: number;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Pass as `cursor` for the next page (the position of this page’s last entry); null when no further entry matched at the time of the request',
    example: 1303,
  })
  next_cursor: number | null;
}

export class ListAuditLogsQuery extends Query<ListAuditLogsResponse> {
  constructor(readonly request: ListAuditLogsRequest) {
    super();
  }
}
