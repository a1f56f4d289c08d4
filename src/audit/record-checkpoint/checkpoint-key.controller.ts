import { Controller, Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Roles } from '../../platform/identity/roles.decorator';
import { ApiErrors } from '../../platform/openapi/api-errors.decorator';
import { NOT_CONFIGURED } from '../signing-key';
import { CheckpointKeyQuery } from './checkpoint-key.query';
import { CheckpointKeyResponse } from './checkpoint-key.response.dto';

/**
 * The public key that verifies the checkpoints. An auditor should fetch it once and keep it (or
 * get it from the operator out of band): a key fetched from a compromised service proves nothing.
 */
@ApiTags('Audit')
@Controller()
export class CheckpointKeyController {
  constructor(private readonly queries: QueryBus) {}

  @Get('admin/checkpoint-key')
  @Roles('auditor', 'admin')
  @ApiOperation({
    operationId: 'getCheckpointKey',
    summary: 'The public key that verifies the signed checkpoints of the audit log',
    description:
      'Fetch it once and keep it (or get it from the operator out of band): a key fetched from a compromised service proves ' +
      'nothing. The offline verifier takes it as `--public-key`.',
  })
  @ApiOkResponse({ type: CheckpointKeyResponse, description: 'The public key checkpoint signatures verify with' })
  @ApiErrors({ 404: { NOT_FOUND: NOT_CONFIGURED } })
  key(): Promise<CheckpointKeyResponse> {
    return this.queries.execute(new CheckpointKeyQuery());
  }
}
