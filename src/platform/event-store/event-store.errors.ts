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

/** What an append found wrong with the log's head: recorded as a chain alarm by whoever watches (`EventStore.watchHead`). */
export interface ChainHeadProblem {
  kind: 'inserted' | 'deleted';
  position: number;
  detail: string;
}

/**
 * The log's head is not where the log or this process says it is: rows were inserted past it or cut
 * from below it behind the service's back. Nothing is appended onto such a log: every append is
 * refused with 503 until an operator has looked (the chain alarm says where).
 */
export class ChainHeadError extends DomainError {
  constructor(readonly problem: ChainHeadProblem) {
    super(
      'CHAIN_ALARM',
      `The audit log was changed behind the service's back, so nothing is recorded until an operator has looked: ${problem.detail}`,
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
