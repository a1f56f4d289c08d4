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
  /** With LOG_POSITION_NOT_REACHED only: the log position the read models had reached. */
  log_position?: number;
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

  /** The response's body; an error that says more adds its fields here. */
  body(): ErrorBody {
    const { code, message, details } = this;
    return details ? { error: code, message, details } : { error: code, message };
  }
}
