import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, Max, Min } from 'class-validator';
import { QueryInteger } from './query-integer';

/** `limit` and `offset` of a list that pages by offset; above 1,000 is a 400 (docs/design.md), not a silent cap. */
export class PageRequest {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 1000,
    default: 100,
    description: 'Items in the page; above 1,000 is a 400',
    example: 100,
  })
  @IsOptional()
  @QueryInteger()
  @Min(1)
  @Max(1000)
  limit: number = 100;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: Number.MAX_SAFE_INTEGER,
    default: 0,
    description: 'Items to skip',
    example: 0,
  })
  @IsOptional()
  @QueryInteger()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  offset: number = 0;
}

/** What an answer paged by offset says of its page: the `limit` and `offset` it applied. */
export class PageAnswer {
  @ApiProperty({ type: 'integer', description: 'The `limit` applied', example: 100 })
  limit: number;

  @ApiProperty({ type: 'integer', description: 'The `offset` applied', example: 0 })
  offset: number;
}
