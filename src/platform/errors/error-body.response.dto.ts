import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import type { ErrorBody, FieldError } from './domain-error';

@ApiSchema({ name: 'FieldError' })
export class FieldErrorDto implements FieldError {
  @ApiProperty({ example: 'tenders.0.amount_cents' })
  field: string;

  @ApiProperty({ type: [String], example: ['amount_cents must be an integer number of cents'] })
  messages: string[];
}

@ApiSchema({ name: 'ErrorBody' })
export class ErrorBodyDto implements ErrorBody {
  @ApiProperty({ description: 'Stable, machine-readable code; clients branch on it.', example: 'VALIDATION_ERROR' })
  error: string;

  @ApiProperty({ description: 'For people; may change between releases.', example: 'Invalid value for subtotal_cents' })
  message: string;

  @ApiPropertyOptional({ type: [FieldErrorDto], description: 'Validation errors only: one entry per rejected field.' })
  details?: FieldErrorDto[];

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    description: '`LOG_POSITION_NOT_REACHED` only: the log position the read models had reached when the wait ended.',
    example: 18_204,
  })
  log_position?: number;
}
