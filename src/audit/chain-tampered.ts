import { HttpStatus } from '@nestjs/common';
import { DomainError } from '../platform/errors/domain-error';

/** The answer to a request that found the log not to be what the service wrote: a 503 naming what, never a 500 nor a made-up answer. */
export const CHAIN_TAMPERED_DOC = {
  CHAIN_TAMPERED:
    'The audit log is not what the service wrote (an entry deleted, changed or not written by the service): the chain alarm is raised; nothing is answered from it',
};

export const chainTampered = (detail: string): DomainError =>
  new DomainError(
    'CHAIN_TAMPERED',
    `The audit log was tampered with: ${detail}. The chain alarm is raised`,
    HttpStatus.SERVICE_UNAVAILABLE,
  );
