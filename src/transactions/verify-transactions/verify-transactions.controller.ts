import { Controller, Get, Header, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { RETRY_AFTER_SECONDS, VerificationInProgressError } from '../../audit/verification-gate';
import { ApiErrors } from '../../platform/openapi/api-errors.decorator';
import { Roles } from '../../platform/identity/roles.decorator';
import { ApiDataAsOf } from '../../platform/read-replica/api-data-as-of.decorator';
import { VerifyTransactionsQuery } from './verify-transactions.query';
import { ReadModelCheck } from './verify-transactions.response.dto';

@ApiTags('Audit')
@Controller()
export class VerifyTransactionsController {
  constructor(private readonly queries: QueryBus) {}

  @Get('admin/verify-transactions')
  @Roles('auditor', 'admin')
  @ApiDataAsOf()
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    operationId: 'verifyTransactions',
    summary: 'Check the transactions read model against the log',
    description:
      'Folds the log’s transaction events (sales, overrides, voids, refunds) as the read model’s projector does and compares every ' +
      'row of the read model, from which `GET /transaction`, lists, receipts and the CSV export answer, field by field; rows no entry ' +
      'of the log records are differences too. Any difference raises the chain alarm. It trusts the log: `GET /admin/verify-hash-chain` ' +
      'verifies that. Always 200: see `difference_count`. It takes the turn of a verification: one runs at a time, another waits up to ' +
      '2 s and is then refused with 429 `VERIFICATION_IN_PROGRESS` and `Retry-After`.',
  })
  @ApiOkResponse({ type: ReadModelCheck, description: 'The fields where the read model is not what the log says' })
  @ApiErrors({
    429: {
      VERIFICATION_IN_PROGRESS:
        'Another verification of the log is running in this process; retry after Retry-After seconds',
    },
  })
  async verify(@Res({ passthrough: true }) reply: FastifyReply): Promise<ReadModelCheck> {
    try {
      return await this.queries.execute(new VerifyTransactionsQuery());
    } catch (error) {
      if (error instanceof VerificationInProgressError) void reply.header('retry-after', RETRY_AFTER_SECONDS);
      throw error;
    }
  }
}
