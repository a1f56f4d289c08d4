import { Controller, Get, Header, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiErrors } from '../../platform/openapi/api-errors.decorator';
import { Roles } from '../../platform/identity/roles.decorator';
import { RETRY_AFTER_SECONDS, VerificationInProgressError } from '../verification-gate';
import { VerifyReadModelsQuery } from './verify-read-models.query';
import { ReadModelsCheck } from './verify-read-models.response.dto';

@ApiTags('Audit')
@Controller()
export class VerifyReadModelsController {
  constructor(private readonly queries: QueryBus) {}

  @Get('admin/verify-read-models')
  @Roles('auditor', 'admin')
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    operationId: 'verifyReadModels',
    summary: 'Check every other read model against the log',
    description:
      'Replays the log into empty copies of the read models of keys, merchants, tips (tips, adjustments, pools, payouts, ' +
      'tip-credit checks) and risk (merchant risk, overrides, voids), each up to where it stands, and compares every row ' +
      'of the stored tables with the replay, column by column; rows the log does not give are differences too. Any ' +
      'difference raises the chain alarm, one per table. The transactions read model has `GET /admin/verify-transactions`. ' +
      'The service also runs this check every `READ_MODEL_CHECK_S` seconds. It trusts the log: ' +
      '`GET /admin/verify-hash-chain` verifies that. Always 200: see `difference_count`. It takes the turn of a ' +
      'verification: one runs at a time, another waits up to 2 s and is then refused with 429 `VERIFICATION_IN_PROGRESS` ' +
      'and `Retry-After`.',
  })
  @ApiOkResponse({
    type: ReadModelsCheck,
    description: 'The rows and fields where the read models are not what the log says',
  })
  @ApiErrors({
    429: {
      VERIFICATION_IN_PROGRESS:
        'Another verification of the log is running in this process; retry after Retry-After seconds',
    },
  })
  async verify(@Res({ passthrough: true }) reply: FastifyReply): Promise<ReadModelsCheck> {
    try {
      return await this.queries.execute(new VerifyReadModelsQuery());
    } catch (error) {
      if (error instanceof VerificationInProgressError) void reply.header('retry-after', RETRY_AFTER_SECONDS);
      throw error;
    }
  }
}
