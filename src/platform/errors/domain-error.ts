/** One entry per rejected field; nested fields are dotted (`tenders.0.amount_cents`). */
export interface FieldError {
  field: string;
  messages: string[];
}

/** The body of every error response (documented by error-body.response.dto.ts). */
export interface ErrorBody {
  error: string;
  message: string;
  details?: FieldError[];
}

/**
 * A failure the client can act on. `code` is the stable, machine-readable `error` of the response;
 * clients branch on it, so a code once published is never renamed.
 */
export class DomainError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    readonly details?: FieldError[],
  ) {
    super(message);
    this.name = 'DomainError';
  }
}
