import { Readable } from 'node:stream';
import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Roles } from '../../auth/roles.decorator';
import { toExportLine } from '../../event-store/chain-export';
import { EventStore } from '../../event-store/event-store.port';
import { DATABASE, type Database } from '../../event-store/sql';
import { logExtent, readLog } from '../read-log';

/**
 * The whole log as NDJSON, one entry per line with the fields its hash covers, for the offline
 * verifier (`npm run verify-chain`). Streamed a batch at a time, up to the last entry stored when
 * the request started, so the file is a consistent prefix of the log whatever its length.
 */
@Controller()
export class ExportAuditLogController {
  constructor(
    private readonly store: EventStore,
    @Inject(DATABASE) private readonly db: Database,
  ) {}

  @Get('admin/audit-logs/export')
  @Roles('auditor', 'admin')
  async export(@Res() reply: FastifyReply): Promise<void> {
    const { lastPosition } = await logExtent(this.db);
    void reply
      .header('Content-Type', 'application/x-ndjson; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="audit-log-1-${lastPosition}.ndjson"`)
      .header('Cache-Control', 'no-store')
      .send(Readable.from(exportLines(this.store, lastPosition)));
  }
}

async function* exportLines(store: EventStore, to: number): AsyncGenerator<string> {
  for await (const batch of readLog(store, 1, to)) yield batch.map(toExportLine).join('');
}
