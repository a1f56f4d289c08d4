import { Query } from '@nestjs/cqrs';

/** The log to send: its last position (the file is named after it) and its lines, a chunk per batch of entries. */
export interface AuditLogFile {
  lastPosition: number;
  lines: AsyncIterable<string>;
}

export class ExportAuditLogQuery extends Query<AuditLogFile> {}
