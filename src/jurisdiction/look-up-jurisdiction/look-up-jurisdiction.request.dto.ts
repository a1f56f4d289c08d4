import { IsOptional, IsString } from 'class-validator';

/**
 * Query DTOs declare the accepted parameters, so an unknown or repeated one is a 400. Their values
 * are checked by the resolver, which every caller goes through, so a valid ZIP, state, status or
 * date is defined once.
 */
export class OnDateQuery {
  /** ISO date (YYYY-MM-DD) the rule must be in force on; default: today (UTC). */
  @IsOptional() @IsString() date?: string;
}

export class ListRulesQuery {
  @IsOptional() @IsString() status?: string;
  @IsOptional() @IsString() state?: string;
}
