import { Controller, Get, Header, Query, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiErrors } from '../../platform/openapi/api-errors.decorator';
import { Roles } from '../../platform/identity/roles.decorator';
import { ApiDataAsOf } from '../../platform/read-replica/api-data-as-of.decorator';
import { RETRY_AFTER_SECONDS, VerificationInProgressError } from '../verification-gate';
import { VerifyHashChainQuery } from './verify-hash-chain.query';
import { VerifyHashChainResponse } from '../verify-hash-chain.response.dto';
import { VerifyHashChainRequest } from './verify-hash-chain.request.dto';

@ApiTags('Audit')
@Controller()
export class VerifyHashChainController {
  constructor(private readonly queries: QueryBus) {}

  @Get('admin/verify-hash-chain')
  @Roles('auditor', 'admin')
  @ApiDataAsOf()
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    operationId: 'verifyHashChain',
    summary: 'Verify the hash chain of the audit log',
    description:
      'Recomputes every hash from the stored fields and follows every link, from the first entry (or `from_position`) to the ' +
      'end of the log as it stands when the request starts (or `to_position`), and names each break. Only a verification to the ' +
      'end can tell that entries were cut from it. Signed checkpoints are checked with the service’s own key when ' +
      'CHECKPOINT_SIGNING_KEY is set; an auditor who does not trust the service exports the log (`GET /admin/audit-logs/export`) ' +
      'and runs the offline verifier with the public key kept from before. Always 200, broken or not: see `break_count`. ' +
      'One verification runs at a time: a request for the range being verified shares its answer, any other waits up to 2 s ' +
      'for its turn and is then refused with 429 `VERIFICATION_IN_PROGRESS` and `Retry-After`.',
  })
  @ApiOkResponse({
    type: VerifyHashChainResponse,
    description: 'The result of recomputing every hash and link in the range',
  })
  @ApiErrors({
    429: {
      VERIFICATION_IN_PROGRESS:
        'Another verification of the log is running in this process; retry after Retry-After seconds',
    },
    503: {
      CHAIN_ALARM:
        'The witness file, the signed heads the log must extend, is missing, torn, corrupt or unreadable (a chain alarm is raised)',
    },
  })
  async verify(
    @Query() query: VerifyHashChainRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<VerifyHashChainResponse> {
    try {
      return await this.queries.execute(new VerifyHashChainQuery(query));
    } catch (error) {
      if (error instanceof VerificationInProgressError) void reply.header('retry-after', RETRY_AFTER_SECONDS);
      throw error;
    }
  }
}
