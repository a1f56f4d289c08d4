import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsISO8601, IsOptional, Max, Min } from 'class-validator';

/** Exactly one of the two. */
export class ReplayWebhooksRequest {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    description: 'Send again the deliveries of the log entries from this position on',
    example: 120,
  })
  @IsOptional()
  // A JSON body says what it means: "1" is a string, refused, as everywhere else in a body.
  @IsInt({ message: 'from_position must be an integer' })
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  from_position?: number;

  @ApiPropertyOptional({
    type: 'string',
    format: 'date-time',
    description: 'Send again the deliveries of the events since this instant',
    example: '2026-11-26T09:00:00Z',
  })
  @IsOptional()
  @IsISO8601({ strict: true })
  since?: string;
}
