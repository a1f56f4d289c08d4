import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { IsInstant } from '../../platform/instant-range';
import { EVENT_TYPE_PATTERN } from './event-type-filter';
import { QueryInteger } from '../../platform/query-integer';

export const DEFAULT_LIMIT = 100;
/** docs/design.md: above it is a 400, not a silent cap. */
export const MAX_LIMIT = 1000;

const USER_ID_PATTERN = /^[\w.:-]{1,128}$/;

export class ListAuditLogsRequest {
  @ApiPropertyOptional({
    pattern: EVENT_TYPE_PATTERN.source,
    description:
      'A short name standing for its event types: `transaction`, `override`, `void`, `refund`, `tip`, `tip_adjustment`, `tip_payout` ' +
      '(pool shares paid included), `tip_pool`, `tip_credit_check`, `api_key`, `merchant`, `jurisdiction_rule` (imported from the seed files or changed), `tip_wage_rule`, ' +
      '`rounding_policy`, `checkpoint`, `chain_alarm`; ' +
      'or any stored event type itself (`TipAdjusted`). A name matching no event gives an empty list.',
    example: 'void',
  })
  @IsOptional()
  @IsString()
  @Matches(EVENT_TYPE_PATTERN, {
    message: 'event_type must be a short name such as transaction or void, or an event type',
  })
  event_type?: string;

  /** The id of the API key that caused the events. */
  @ApiPropertyOptional({
    pattern: USER_ID_PATTERN.source,
    description: 'The id of the API key that caused the events',
    example: 'key_7QW2M9XK4Pb3nT8cR1dF',
  })
  @IsOptional()
  @IsString()
  @Matches(USER_ID_PATTERN, { message: 'user_id must be an API key id' })
  user_id?: string;

  @IsInstant()
  start_date?: string;

  /** Inclusive; a date alone includes that whole day (UTC). */
  @IsInstant()
  end_date?: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_LIMIT,
    default: DEFAULT_LIMIT,
    description: 'Entries per page; above the maximum is a 400',
    example: DEFAULT_LIMIT,
  })
  @IsOptional()
  @QueryInteger()
  @Min(1)
  @Max(MAX_LIMIT)
  limit: number = DEFAULT_LIMIT;

  /** The `next_cursor` of the previous page: the position of its last entry. 0 (default): from the start. */
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: Number.MAX_SAFE_INTEGER,
    default: 0,
    description: 'The `next_cursor` of the previous page: entries after this position. 0: from the start',
    example: 0,
  })
  @IsOptional()
  @QueryInteger()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  cursor: number = 0;
}
