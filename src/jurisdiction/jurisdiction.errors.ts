export type JurisdictionValidationCode = 'INVALID_ZIP_CODE' | 'INVALID_STATE' | 'UNKNOWN_STATE' | 'INVALID_DATE' | 'INVALID_STATUS';

/** A location or filter the caller must fix: the HTTP layer answers 400 with `field` in the details. */
export class JurisdictionValidationError extends Error {
  constructor(
    readonly code: JurisdictionValidationCode,
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** A well-formed state code with no jurisdiction data: the HTTP layer answers 404. */
export class JurisdictionNotFoundError extends Error {
  readonly code = 'JURISDICTION_NOT_FOUND';
}
