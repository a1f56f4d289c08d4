import { createPublicKey } from 'node:crypto';
import { HttpStatus } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { AppConfig } from '../../platform/config/config';
import { DomainError } from '../../platform/errors/domain-error';
import { keyId } from '../../platform/verification/checkpoint';
import { verifierKey } from '../../platform/verification/signed-note';
import { LogOrigin } from '../log-origin';
import { CheckpointKeyQuery } from './checkpoint-key.query';
import type { CheckpointKeyResponse } from './checkpoint-key.response.dto';

export const NOT_CONFIGURED = 'Checkpoint signing is not configured (CHECKPOINT_SIGNING_KEY)';

/** The public half of CHECKPOINT_SIGNING_KEY (as PEM and as the checkpoint notes' verifier key), and the interval the checkpoints are signed at. */
@QueryHandler(CheckpointKeyQuery)
export class CheckpointKeyHandler implements IQueryHandler<CheckpointKeyQuery, CheckpointKeyResponse> {
  constructor(
    private readonly config: AppConfig,
    private readonly origin: LogOrigin,
  ) {}

  async execute(): Promise<CheckpointKeyResponse> {
    const privateKey = this.config.checkpointSigningKey;
    if (!privateKey) throw new DomainError('NOT_FOUND', NOT_CONFIGURED, HttpStatus.NOT_FOUND);
    const publicKey = createPublicKey(privateKey);
    return {
      algorithm: 'Ed25519',
      key_id: keyId(publicKey),
      public_key_pem: publicKey.export({ format: 'pem', type: 'spki' }) as string,
      origin: this.origin.name,
      vkey: verifierKey(this.origin.name, publicKey),
      checkpoint_interval: this.config.checkpointInterval,
    };
  }
}
