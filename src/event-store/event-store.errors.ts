/** The stream moved on since the caller read it: a typed conflict the handler retries or turns into a 409. */
export class RevisionConflictError extends Error {
  readonly code = 'REVISION_CONFLICT';
  constructor(
    readonly streamId: string,
    readonly expectedRevision: number,
    readonly actualRevision: number,
  ) {
    super(`stream ${streamId} is at revision ${actualRevision}, expected ${expectedRevision}`);
  }
}

export class UnstorableValueError extends Error {
  readonly code = 'VALIDATION_ERROR';
}
