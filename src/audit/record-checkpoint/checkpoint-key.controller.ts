import { createPublicKey } from 'node:crypto';
import { Controller, Get, HttpStatus } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { Roles } from '../../platform/identity/roles.decorator';
import { DomainError } from '../../platform/errors/domain-error';
import { AppConfig } from '../../platform/config/config';
import { keyId } from '../../platform/event-store/chain-checkpoint';
import { ApiErrors } from '../../platform/openapi/api-errors.decorator';

export const CHECKPOINT_ALGORITHMS = ['Ed25519'] as const;

const NOT_CONFIGURED = 'Checkpoint signing is not configured (CHECKPOINT_SIGNING_KEY)';

export class CheckpointKeyResponse {
  @ApiProperty({ enum: CHECKPOINT_ALGORITHMS })
  algorithm: (typeof CHECKPOINT_ALGORITHMS)[number];

  @ApiProperty({
    pattern: '^[0-9a-f]{16}$',
    description: 'The first 16 hex digits of the SHA-256 of the key’s DER (SubjectPublicKeyInfo); each checkpoint names the key that signed it',
    example: '4bd56606b0290a99',
  })
  key_id: string;

  /** SubjectPublicKeyInfo; save it as a file for `verify-chain --public-key`. */
  @ApiProperty({
    description: 'SubjectPublicKeyInfo in PEM; save it as a file for `verify-chain --public-key`',
    example: '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAA2Npzg60sF+wkGddjdIrR2v/AQcwdwsSlos6WXHDpiM=\n-----END PUBLIC KEY-----\n',
  })
  public_key_pem: string;

  @ApiProperty({ type: 'integer', minimum: 1, description: 'A checkpoint is appended once the log has grown this many entries past the last one', example: 1000 })
  checkpoint_interval: number;
}

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
