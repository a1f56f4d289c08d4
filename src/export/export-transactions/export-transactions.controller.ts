import { Readable } from 'node:stream';
import { Body, Controller, HttpCode, HttpStatus, Post, Query, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBody, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { MinPositionRequest } from '../../platform/as-of-position';
import { CurrentPrincipal } from '../../platform/identity/current-principal.decorator';
import type { Principal } from '../../platform/identity/principal';
import { ReadsOnly } from '../../platform/identity/reads-only.decorator';
import { Roles } from '../../platform/identity/roles.decorator';
import { ApiDataAsOf } from '../../platform/read-replica/api-data-as-of.decorator';
import { EXPORT_COLUMNS, EXPORT_MODES } from './export-columns';
import { EXPORT_EXAMPLES } from './export-example';
import { ExportTransactionsQuery } from './export-transactions.query';
import { ExportTransactionsRequest } from './export-transactions.request.dto';

/** The media type of the file (sent with `; charset=utf-8`). */
export const CSV = 'text/csv';

/**
 * `POST /export`: the transactions as CSV, streamed as the rows are read. Not idempotent-recorded:
 * it writes nothing, and an answer of any length cannot be kept for a replay; a retry exports again.
 */
@ApiTags('Export')
@Controller()
export class ExportTransactionsController {
  constructor(private readonly queries: QueryBus) {}

  @Post('export')
  @Roles('merchant', 'auditor', 'admin')
  @ApiDataAsOf()
  @ReadsOnly()
  // What the reply below sends; stated for the document, as @Res() takes the status out of Nest's hands.
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    operationId: 'exportTransactions',
    summary: 'Export transactions as a CSV file',
    description:
      'Every SALE, VOID and REFUND record of the transaction list that the filters match, each sale as it stands now, ' +
      'oldest first (by `created_at`, then chain position), up to the moment of the request. Columns by `export_mode`: ' +
      `${EXPORT_MODES.map((mode) => `\`${mode}\` ${EXPORT_COLUMNS[mode].length}`).join(', ')}; docs/export.md lists them. ` +
      'RFC 4180 with CRLF line ends, UTF-8 without a byte-order mark; amounts as integer cents (`…_cents`) and, for the main ones, ' +
      "dollars (`…_dollars`); an empty cell is null; a cell that a spreadsheet would run as a formula gets a leading `'`. " +
      'No match: the header line alone. Sent as `attachment; filename="crcs-export-<mode>-<merchant_id|all>-<start>-<end>.csv"`, ' +
      'with `Cache-Control: no-store`. Merchant keys export their own merchant only; auditor and admin keys any one, or all. ' +
      'An `Idempotency-Key` is accepted and ignored: the export writes nothing, and a retry exports again.',
  })
  @ApiBody({ type: ExportTransactionsRequest, required: false })
  @ApiProduces(CSV)
  @ApiOkResponse({
    description: 'The CSV file: the header line, then a line per transaction',
    headers: {
      'Content-Disposition': {
        description: 'An attachment named after the mode, the merchant (`all` for every one) and the period',
        schema: {
          type: 'string',
          example: 'attachment; filename="crcs-export-standard-corner-deli-2026-11-01-2026-11-30.csv"',
        },
      },
    },
    content: {
      [CSV]: {
        schema: { type: 'string', example: EXPORT_EXAMPLES.standard },
        examples: Object.fromEntries(
          EXPORT_MODES.map((mode) => [
            mode,
            { summary: `export_mode ${mode}: the header and one cash sale`, value: EXPORT_EXAMPLES[mode] },
          ]),
        ),
      },
    },
  })
  async export(
    @Body() request: ExportTransactionsRequest,
    @Query() { min_position: minPosition }: MinPositionRequest,
    @CurrentPrincipal() principal: Principal,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const file = await this.queries.execute(new ExportTransactionsQuery(request, principal, minPosition));
    // @Res(): Nest hands the reply over and buffers nothing; the stream pulls one chunk at a time,
    // only as fast as the client reads.
    void reply
      .status(200)
      .header('Content-Type', `${CSV}; charset=utf-8`)
      .header('Content-Disposition', `attachment; filename="${file.fileName}"`)
      .header('Cache-Control', 'no-store')
      .send(Readable.from(file.chunks, { highWaterMark: 1 }));
  }
}
