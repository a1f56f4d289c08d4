import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, Max, Min } from 'class-validator';
import { TipAnalyticsScope } from '../tip-fields';
import { QueryInteger } from '../../platform/query-integer';

/** docs/design.md: list limits stop at 1,000 with a 400 above. */
export const MAX_POOLS_LISTED = 1000;
const DEFAULT_POOLS_LISTED = 100;

export class TipAnalyticsRequest extends TipAnalyticsScope {
  /** How many of the newest pools to summarize one by one; the totals cover all of them. */
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_POOLS_LISTED,
    default: DEFAULT_POOLS_LISTED,
    description:
      'How many of the newest pools `pools.recent` summarizes one by one, and of the newest sales `tips_beyond_sale.sales` lists; the totals and counts cover all of them. Above 1,000 is a 400.',
    example: 100,
  })
  @IsOptional()
  @QueryInteger()
  @Min(1)
  @Max(MAX_POOLS_LISTED)
  limit: number = DEFAULT_POOLS_LISTED;
}
