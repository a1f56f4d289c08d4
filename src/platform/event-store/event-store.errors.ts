import { DomainError } from '../errors/domain-error';

/** The stream moved on since the caller read it: a typed conflict the handler retries or turns into a 409. */
export class RevisionConflictError extends DomainError {
  constructor(
    readonly streamId: string,
    readonly expectedRevision: number,
    readonly actualRevision: number,
  ) {
    super('CONCURRENT_MODIFICATION', `The record changed while this request was processed; retry it`, 409);
  }
}

export class UnstorableValueError extends DomainError {
  constructor(message: string) {
    super('VALIDATION_ERROR', message, 400);
  }
}

/** The database cannot be reached: the request is refused fast, and the client may retry it once the service is healthy. */
export class DatabaseUnavailableError extends DomainError {
  constructor() {
    super('SERVICE_UNAVAILABLE', 'The database is unavailable; retry shortly', 503);
  }
}

/** The embedded database cannot start, or its folder belongs to another live service: a one-line reason for the operator. */
export class EmbeddedDatabaseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EmbeddedDatabaseError';
  }
}
