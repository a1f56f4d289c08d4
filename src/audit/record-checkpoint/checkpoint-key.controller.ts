import { createPublicKey } from 'node:crypto';
import { Controller, Get, HttpStatus } from '@nestjs/common';
import { Roles } from '../../auth/roles.decorator';
import { DomainError } from '../../common/errors/domain-error';
import { AppConfig } from '../../config/config';
import { keyId } from '../../event-store/chain-checkpoint';

export interface CheckpointKeyResponse {
  algorithm: 'Ed25519';
  key_id: string;
  /** SubjectPublicKeyInfo; save it as a file for `verify-chain --public-key`. */
  public_key_pem: string;
  checkpoint_interval: number;
}

/**
 * The public key that verifies the checkpoints. An auditor should fetch it once and keep it (or
 * get it from the operator out of band): a key fetched from a compromised service proves nothing.
 */
@Controller()
export class CheckpointKeyController {
  constructor(private readonly config: AppConfig) {}

  @Get('admin/checkpoint-key')
  @Roles('auditor', 'admin')
  key(): CheckpointKeyResponse {
    const privateKey = this.config.checkpointSigningKey;
    if (!privateKey) throw new DomainError('NOT_FOUND', 'Checkpoint signing is not configured (CHECKPOINT_SIGNING_KEY)', HttpStatus.NOT_FOUND);
    const publicKey = createPublicKey(privateKey);
    return {
      algorithm: 'Ed25519',
      key_id: keyId(publicKey),
      public_key_pem: publicKey.export({ format: 'pem', type: 'spki' }) as string,
      checkpoint_interval: this.config.checkpointInterval,
    };
  }
}
