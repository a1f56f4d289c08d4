import { createPublicKey } from 'node:crypto';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { AppConfig } from '../../platform/config/config';
import { keyId, verifierKey } from '@crcs/tlog';
import { LogOrigin } from '../../platform/event-store/log-origin';
import { signingKey } from '../signing-key';
import { CheckpointKeyQuery } from './checkpoint-key.query';
import type { CheckpointKeyResponse } from './checkpoint-key.response.dto';

/** The public half of CHECKPOINT_SIGNING_KEY (as PEM and as the checkpoint notes' verifier key), and the interval the checkpoints are signed at. */
@QueryHandler(CheckpointKeyQuery)
export class CheckpointKeyHandler implements IQueryHandler<CheckpointKeyQuery, CheckpointKeyResponse> {
  constructor(
    private readonly config: AppConfig,
    private readonly origin: LogOrigin,
  ) {}

  async execute(): Promise<CheckpointKeyResponse> {
    const publicKey = createPublicKey(signingKey(this.config));
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
