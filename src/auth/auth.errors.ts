import { DomainError } from '../platform/errors/domain-error';

export class ApiKeyNotFoundError extends DomainError {
  constructor(keyId: string) {
    super('NOT_FOUND', `API key ${keyId} not found`, 404);
  }
}

/** Only reachable by reusing a key id: fresh ids are random, the bootstrap key's is fixed on purpose. */
export class ApiKeyAlreadyIssuedError extends DomainError {
  constructor(keyId: string) {
    super('API_KEY_ALREADY_ISSUED', `API key ${keyId} has already been issued`, 409);
  }
}

export class PartnerNotFoundError extends DomainError {
  constructor(partnerId: string) {
    super('NOT_FOUND', `Partner ${partnerId} not found`, 404);
  }
}
