import type { KeyObject } from 'node:crypto';
import { HttpStatus } from '@nestjs/common';
import type { AppConfig } from '../platform/config/config';
import { DomainError } from '../platform/errors/domain-error';

export const NOT_CONFIGURED = 'Checkpoint signing is not configured (CHECKPOINT_SIGNING_KEY)';

/** The checkpoint signing key, for an answer that needs it: a 404 without one. */
export function signingKey(config: AppConfig): KeyObject {
  const key = config.checkpointSigningKey;
  if (!key) throw new DomainError('NOT_FOUND', NOT_CONFIGURED, HttpStatus.NOT_FOUND);
  return key;
}
