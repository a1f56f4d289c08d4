import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { DATABASE, type Database } from '../../platform/event-store/sql';
import { exportLine } from '@crcs/tlog';
import { readStoredEntries } from '../../platform/verification/stored-entries';
import { logExtent } from '../read-log';
import { ExportAuditLogQuery, type AuditLogFile } from './export-audit-log.query';

/**
 * Up to the last entry stored when the request started, so the file is a consistent prefix of the
 * log whatever its length. Read from the primary: it is not in the read replica's list.
 */
@QueryHandler(ExportAuditLogQuery)
export class ExportAuditLogHandler implements IQueryHandler<ExportAuditLogQuery, AuditLogFile> {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async execute(): Promise<AuditLogFile> {
    const { lastPosition } = await logExtent(this.db);
    return { lastPosition, lines: exportLines(this.db, lastPosition) };
  }
}

async function* exportLines(db: Database, to: number): AsyncGenerator<string> {
  for await (const batch of readStoredEntries(db, 1, to))
    yield batch.map(({ bytes, event }) => exportLine(bytes, event.hash, event.writerMac)).join('');
}
