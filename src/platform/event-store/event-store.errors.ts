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

/**
 * The connection was lost while COMMIT was on its way: the transaction may have committed or not, and
 * nothing here can tell. Retrying with the same Idempotency-Key is the one safe move: it answers what
 * was recorded if the commit happened, and runs the request once if not.
 */
export class OutcomeUnknownError extends DomainError {
  constructor() {
    super(
      'OUTCOME_UNKNOWN',
      'The connection to the database was lost while the request was being committed, so it may have been recorded. ' +
        'Retry it with the same Idempotency-Key: the retry answers what was recorded, or records it once. Without a key, look it up before sending it again',
      503,
    );
  }
}

/** The embedded database cannot start, or its folder belongs to another live service: a one-line reason for the operator. */
export class EmbeddedDatabaseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EmbeddedDatabaseError';
  }
}
