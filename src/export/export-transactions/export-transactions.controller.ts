import { Readable } from 'node:stream';
import { Body, Controller, Post, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { CurrentPrincipal } from '../../auth/current-principal.decorator';
import type { Principal } from '../../auth/principal';
import { ReadsOnly } from '../../auth/reads-only.decorator';
import { Roles } from '../../auth/roles.decorator';
import { ExportTransactionsQuery } from './export-transactions.query';
import { ExportTransactionsRequest } from './export-transactions.request.dto';

/**
 * `POST /export`: the transactions as CSV, streamed as the rows are read. Not idempotent-recorded:
 * it writes nothing, and an answer of any length cannot be kept for a replay; a retry exports again.
 */
@Controller()
export class ExportTransactionsController {
  constructor(private readonly queries: QueryBus) {}

  @Post('export')
  @Roles('merchant', 'auditor', 'admin')
  @ReadsOnly()
  async export(
    @Body() request: ExportTransactionsRequest,
    @CurrentPrincipal() principal: Principal,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const file = await this.queries.execute(new ExportTransactionsQuery(request, principal));
    // @Res(): Nest hands the reply over and buffers nothing; the stream pulls one chunk at a time,
    // only as fast as the client reads.
    void reply
      .status(200)
      .header('Content-Type', 'text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="${file.fileName}"`)
      .header('Cache-Control', 'no-store')
      .send(Readable.from(file.chunks, { highWaterMark: 1 }));
  }
}
