import { ApiPropertyOptional, ApiProperty } from '@nestjs/swagger';
import { IsOptional, Max, Min } from 'class-validator';
import { QueryInteger } from '../../platform/query-integer';

const size = (description: string, example: number) =>
  ApiProperty({ type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description, example });

export class InclusionProofRequest {
  @size('The entry’s position in the log', 1204)
  @QueryInteger()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  position: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: Number.MAX_SAFE_INTEGER,
    description: 'Default: the latest tree head’s size',
    example: 2000,
  })
  @IsOptional()
  @QueryInteger()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  tree_size?: number;
}

export class ConsistencyProofRequest {
  @size('The earlier tree size, e.g. of a tree head kept from before', 1000)
  @QueryInteger()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  first: number;

  @size('The later tree size, at most the log’s', 2000)
  @QueryInteger()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  second: number;
}
