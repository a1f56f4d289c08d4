import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** One entry per rejected field; nested fields are dotted (`tenders.0.amount_cents`). */
export class FieldError {
  @ApiProperty({ example: 'tenders.0.amount_cents' })
  field: string;

  @ApiProperty({ type: [String], example: ['amount_cents must be an integer number of cents'] })
  messages: string[];
}

/** The body of every error response. */
export class ErrorBody {
  @ApiProperty({ description: 'Stable, machine-readable code; clients branch on it.', example: 'VALIDATION_ERROR' })
  error: string;

  @ApiProperty({ description: 'For people; may change between releases.', example: 'Invalid value for subtotal_cents' })
  message: string;

  @ApiPropertyOptional({ type: [FieldError], description: 'Validation errors only: one entry per rejected field.' })
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
