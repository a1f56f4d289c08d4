import { createPublicKey } from 'node:crypto';
import { Controller, Get, HttpStatus } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Roles } from '../../platform/identity/roles.decorator';
import { DomainError } from '../../platform/errors/domain-error';
import { AppConfig } from '../../platform/config/config';
import { keyId } from '../../platform/verification/checkpoint';
import { ApiErrors } from '../../platform/openapi/api-errors.decorator';
import { CheckpointKeyResponse } from './checkpoint-key.response.dto';

const NOT_CONFIGURED = 'Checkpoint signing is not configured (CHECKPOINT_SIGNING_KEY)';

/**
 * The public key that verifies the checkpoints. An auditor should fetch it once and keep it (or
 * get it from the operator out of band): a key fetched from a compromised service proves nothing.
 */
@ApiTags('Audit')
@Controller()
export class CheckpointKeyController {
  constructor(private readonly config: AppConfig) {}

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
  key(): CheckpointKeyResponse {
    const privateKey = this.config.checkpointSigningKey;
    if (!privateKey) throw new DomainError('NOT_FOUND', NOT_CONFIGURED, HttpStatus.NOT_FOUND);
    const publicKey = createPublicKey(privateKey);
    return {
      algorithm: 'Ed25519',
      key_id: keyId(publicKey),
      public_key_pem: publicKey.export({ format: 'pem', type: 'spki' }) as string,
      checkpoint_interval: this.config.checkpointInterval,
    };
  }
}
