import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, Max, Min } from 'class-validator';
import { QueryInteger } from '../../platform/query-integer';

export class VerifyHashChainRequest {
  /** Default 1: the whole chain from genesis. Later, the range trusts the prev_hash of its first entry. */
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: Number.MAX_SAFE_INTEGER,
    default: 1,
    description:
      'Default 1: the whole chain from its first entry. A later start trusts the prev_hash of its first entry. Past the end of the log: 400',
    example: 1,
  })
  @IsOptional()
  @QueryInteger()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  from_position: number = 1;

  /** Default, or beyond the head: up to the head as it stands when the request starts. */
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: Number.MAX_SAFE_INTEGER,
    description:
      'Inclusive. Absent or beyond the end: up to the last entry when the request starts. Below `from_position`: 400',
    example: 2000,
  })
  @IsOptional()
  @QueryInteger()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  to_position?: number;
}
