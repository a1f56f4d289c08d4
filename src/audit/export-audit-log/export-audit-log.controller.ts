import { Readable } from 'node:stream';
import { Controller, Get, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Roles } from '../../platform/identity/roles.decorator';
import { NDJSON } from '../read-log';
import { toExportLine, entryHash, GENESIS_HASH } from '@crcs/tlog';
import type { StoredEvent } from '../../platform/event-store/event-store.port';
import { ExportAuditLogQuery } from './export-audit-log.query';

/** The first entry of a log, as an export writes it: its hash is the real one, so the example verifies. */
function exampleExport(): string {
  const first: Omit<StoredEvent, 'hash'> = {
    position: 1,
    entryId: '5f0c9a7e-2b1d-4c3e-9a8f-6d2e1b0c4a7f',
    streamId: 'merchant-m-quickstop-042',
    streamRevision: 1,
    type: 'MerchantOnboarded',
    data: {
      merchantId: 'm-quickstop-042',
      name: 'Quick Stop',
      environment: 'production',
      partnerId: null,
      onboardedAt: '2026-11-21T14:30:00.000Z',
    },
    metadata: {
      schemaVersion: 1,
      correlationId: 'c2a1f3e4-7b6d-4e8f-9a0b-1c2d3e4f5a6b',
      causationId: 'c2a1f3e4-7b6d-4e8f-9a0b-1c2d3e4f5a6b',
      actor: { keyId: 'env:ADMIN_API_KEY', role: 'admin' },
    },
    recordedAt: '2026-11-21T14:30:00.004Z',
    prevHash: GENESIS_HASH,
  };
  return toExportLine({ ...first, hash: entryHash(first) });
}

/**
 * The whole log as NDJSON, one entry per line with the fields its hash covers, for the offline
 * verifier (`npm run verify-chain`). Streamed a batch at a time, up to the last entry stored when
 * the request started, so the file is a consistent prefix of the log whatever its length.
 */
@ApiTags('Audit')
@Controller()
export class ExportAuditLogController {
  constructor(private readonly queries: QueryBus) {}

  @Get('admin/audit-logs/export')
  @Roles('auditor', 'admin')
  @ApiOperation({
    operationId: 'exportAuditLog',
    summary: 'Export the whole audit log as NDJSON, for offline verification',
    description:
      'One entry per line, in position order, each a JSON object with exactly the fields its hash covers: `position`, `entry_id`, ' +
      '`stream_id`, `stream_revision`, `event_type`, `data`, `metadata`, `recorded_at`, `prev_hash`, and the `hash` itself. ' +
      "Each line is the entry's canonical JSON (RFC 8785), the very bytes its hash covers, with `hash` added after it, then `writer_mac`, " +
      'the HMAC of the hash under the writer key of the service process that wrote it (absent on entries written before writer authentication). ' +
      'Streamed a batch at a time, from position 1 up to the last entry stored when the request started, so the file is a ' +
      'consistent prefix of the log however long; sent as `attachment; filename="audit-log-1-<last position>.ndjson"`, ' +
      'with `Cache-Control: no-store`. The offline verifier (`npm run verify-chain -- <file> --public-key <key.pem>`) checks it ' +
      'with no service and no database.',
  })
  @ApiProduces(NDJSON)
  @ApiOkResponse({
    description: 'The log, one JSON entry per line (`\\n`-terminated), UTF-8',
    headers: {
      'Content-Disposition': {
        description: 'An attachment named after the positions it holds',
        schema: { type: 'string', example: 'attachment; filename="audit-log-1-1042.ndjson"' },
      },
    },
    content: { [NDJSON]: { schema: { type: 'string', example: exampleExport() } } },
  })
  async export(@Res() reply: FastifyReply): Promise<void> {
    const { lastPosition, lines } = await this.queries.execute(new ExportAuditLogQuery());
    void reply
      .header('Content-Type', `${NDJSON}; charset=utf-8`)
      .header('Content-Disposition', `attachment; filename="audit-log-1-${lastPosition}.ndjson"`)
      .header('Cache-Control', 'no-store')
      .send(Readable.from(lines));
  }
}
