import { DomainError } from '../common/errors/domain-error';

/** Missing, unknown and revoked keys look the same, so a probe learns nothing about which keys exist. */
export class UnauthorizedError extends DomainError {
  constructor() {
    super('UNAUTHORIZED', 'Invalid or missing API key', 401);
  }
}

export class ForbiddenError extends DomainError {
  constructor(message = 'Insufficient permissions for this endpoint') {
    super('FORBIDDEN', message, 403);
  }
}

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

/** A request that is well-formed field by field but inconsistent as a whole: 400 naming the field to fix. */
export class InvalidFieldError extends DomainError {
  constructor(field: string, message: string) {
    super('VALIDATION_ERROR', message, 400, [{ field, messages: [message] }]);
  }
}

export class PartnerNotFoundError extends DomainError {
  constructor(partnerId: string) {
    super('NOT_FOUND', `Partner ${partnerId} not found`, 404);
  }
}
