import { Controller, Get, Header } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Roles } from '../../platform/identity/roles.decorator';
import { ApiErrors } from '../../platform/openapi/api-errors.decorator';
import { CHAIN_TAMPERED_DOC } from '../chain-tampered';
import { NOT_CONFIGURED } from '../signing-key';
import { WitnessingQuery } from './witnessing.query';
import { WitnessingResponse } from './witnessing.response.dto';

/** The witnessing of the log's checkpoints (LOG_POLICY_FILE), for the portal's chain page and any auditor's tool. */
@ApiTags('Audit')
@Controller('admin/audit')
export class WitnessingController {
  constructor(private readonly queries: QueryBus) {}

  @Get('witnessing')
  @Roles('auditor', 'admin')
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    operationId: 'getWitnessing',
    summary: 'The latest checkpoint, its cosigners and the quorum state',
    description:
      'The log’s origin and verifier key, the latest checkpoint with its note as `GET /log/checkpoint` serves it, and each witness of ' +
      'LOG_POLICY_FILE: whether it cosigned that checkpoint, when, and the largest tree size it cosigned; then whether the ' +
      'cosignatures meet the policy’s quorum, counted as `verify-chain checkpoint --policy` counts them. A witness’s refusal is a ' +
      'chain alarm (`GET /health`). `policy` is null when LOG_POLICY_FILE is unset.',
  })
  @ApiOkResponse({ type: WitnessingResponse, description: 'The witnessing state' })
  @ApiErrors({ 404: { NOT_FOUND: NOT_CONFIGURED }, 503: CHAIN_TAMPERED_DOC })
  witnessing(): Promise<WitnessingResponse> {
    return this.queries.execute(new WitnessingQuery());
  }
}
