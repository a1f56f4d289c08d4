import { DomainError } from '../platform/errors/domain-error';

export type JurisdictionValidationReason =
  'INVALID_ZIP_CODE' | 'INVALID_STATE' | 'UNKNOWN_STATE' | 'INVALID_DATE' | 'INVALID_STATUS';

/**
 * A location or filter the caller must fix: 400 `VALIDATION_ERROR` with `field` in the details.
 * `reason` tells callers such as the transaction handler which check failed without parsing the message.
 */
export class JurisdictionValidationError extends DomainError {
  constructor(
    readonly reason: JurisdictionValidationReason,
    readonly field: string,
    message: string,
  ) {
    super('VALIDATION_ERROR', message, 400, [{ field, messages: [message] }]);
  }
}

/** A well-formed state code or ZIP with no jurisdiction data: 404 `NOT_FOUND`, like any unknown resource. */
export class JurisdictionNotFoundError extends DomainError {
  constructor(message: string) {
    super('NOT_FOUND', message, 404);
  }
}
