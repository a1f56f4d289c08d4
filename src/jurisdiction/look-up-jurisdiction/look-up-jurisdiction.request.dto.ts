import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { RULE_STATUSES } from '../../rules/jurisdiction-rule';

/**
 * Query DTOs declare the accepted parameters, so an unknown or repeated one is a 400. Their values
 * are checked by the resolver, which every caller goes through, so a valid ZIP, state, status or
 * date is defined once.
 */
export class OnDateQuery {
  /** ISO date (YYYY-MM-DD) the rule must be in force on; default: today (UTC). */
  @ApiPropertyOptional({
    type: 'string',
    format: 'date',
    description: 'The day the rule must be in force on (YYYY-MM-DD), such as the date of a sale; default: today (UTC)',
    example: '2026-11-21',
  })
  @IsOptional()
  @IsString()
  date?: string;
}

export class ListRulesQuery {
  @ApiPropertyOptional({ enum: RULE_STATUSES, description: 'Only the rules of this status', example: 'enacted' })
  @IsOptional()
  @IsString()
  status?: string;

  @ApiPropertyOptional({
    type: 'string',
    description:
      'Only the rules of this state and of its counties and cities: a two-letter code, in any case; the federal rule is not listed',
    example: 'NY',
  })
  @IsOptional()
  @IsString()
  state?: string;

  @ApiPropertyOptional({
    enum: ['true', 'false'],
    description:
      '`true`: only the stale records: a pending or proposed bill past its session’s end (or with none recorded), however recently it was checked, or a record not verified for 90 days',
    example: 'true',
  })
  @IsOptional()
  @IsIn(['true', 'false'])
  stale?: 'true' | 'false';
}
