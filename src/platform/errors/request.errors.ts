import { DomainError } from './domain-error';

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

/** A request that is well-formed field by field but inconsistent as a whole: 400 naming the field to fix. */
export class InvalidFieldError extends DomainError {
  constructor(field: string, message: string) {
    super('VALIDATION_ERROR', message, 400, [{ field, messages: [message] }]);
  }
}

/**
 * HTTP gives a GET's or DELETE's body no meaning, and proxies may drop it: a client that put its filters
 * there would get an answer it did not ask for (every merchant's instead of one), so the body is refused.
 */
export class BodyNotAllowedError extends DomainError {
  constructor(method: string) {
    super(
      'BODY_NOT_ALLOWED',
      `A ${method} request takes no body; send its parameters in the path and query string`,
      400,
    );
  }
}
