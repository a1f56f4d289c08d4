import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { TipWageTheftRequest } from '../tip-wage-theft/tip-wage-theft.request.dto';

/** DESIGN.md: list limits stop at 1,000 with a 400 above. */
export const MAX_POOLS_LISTED = 1000;

export class TipAnalyticsRequest extends TipWageTheftRequest {
  /** How many of the newest pools to summarize one by one; the totals cover all of them. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_POOLS_LISTED)
  limit: number = 100;
}
