import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { IsInstant } from '../../common/instant-range';
import { EVENT_TYPE_PATTERN } from './event-type-filter';

export const DEFAULT_LIMIT = 100;
/** DESIGN.md: above it is a 400, not a silent cap. */
export const MAX_LIMIT = 1000;

export class ListAuditLogsRequest {
  @IsOptional()
  @IsString()
  @Matches(EVENT_TYPE_PATTERN, { message: 'event_type must be a short name such as transaction or void, or an event type' })
  event_type?: string;

  /** The id of the API key that caused the events. */
  @IsOptional()
  @IsString()
  @Matches(/^[\w.:-]{1,128}$/, { message: 'user_id must be an API key id' })
  user_id?: string;

  @IsInstant()
  start_date?: string;

  /** Inclusive; a date alone includes that whole day (UTC). */
  @IsInstant()
  end_date?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_LIMIT)
  limit: number = DEFAULT_LIMIT;

  /** The `next_cursor` of the previous page: the position of its last entry. 0 (default): from the start. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  cursor: number = 0;
}
