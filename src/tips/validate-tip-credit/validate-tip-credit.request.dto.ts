import { ApiProperty } from '@nestjs/swagger';
import { IsOptional, IsString, Length, Matches } from 'class-validator';
import { ZIP_CODE } from '../../rules/jurisdiction-resolver';
import { ACTING_MERCHANT, Dollars, EmployeeId, MAX_HOURLY_DOLLARS, OptionalMerchantId } from '../tip-fields';

const STATE_PATTERN = /^[A-Za-z]{2}$/;
/** A city's name as people write it: letters, spaces, periods, apostrophes and hyphens. */
const CITY_PATTERN = /^[A-Za-z][A-Za-z .'-]*$/;

/** `POST /tip/validate-compliance`. `employee_id` (not in the spec) lets a flag name whose wage it was. */
export class ValidateTipCreditRequest {
  /** A state's code, or `US` for FLSA alone. */
  @ApiProperty({
    type: 'string',
    pattern: STATE_PATTERN.source,
    description:
      'A state’s or territory’s two-letter code, in either case, or `US` for FLSA alone. A code without tip credit rules is a 400.',
    example: 'TX',
  })
  @IsString()
  @Matches(STATE_PATTERN, { message: 'state must be a two-letter state code' })
  state: string;

  @ApiProperty({
    type: 'string',
    required: false,
    minLength: 1,
    maxLength: 64,
    pattern: CITY_PATTERN.source,
    description:
      'Not in the spec: the city where the employee works, in any case, for a local tip credit rule (Chicago’s) checked beside the state’s. A city without its own rule in the seed data is checked under the state’s, and `notes` says so.',
    example: 'Chicago',
  })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  @Matches(CITY_PATTERN, { message: 'city must be a city name: letters, spaces, periods, apostrophes and hyphens' })
  city?: string;

  @ApiProperty({
    type: 'string',
    required: false,
    minLength: 1,
    maxLength: 64,
    pattern: CITY_PATTERN.source,
    description:
      'Not in the spec: the county where the employee works, in any case, with or without “County”: a region’s figures (New York City, Long Island and Westchester) or a county’s own rule apply there',
    example: 'Westchester',
  })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  @Matches(CITY_PATTERN, { message: 'county must be a county name: letters, spaces, periods, apostrophes and hyphens' })
  county?: string;

  @ApiProperty({
    type: 'string',
    required: false,
    pattern: ZIP_CODE.source,
    description:
      'Not in the spec: the ZIP code where the employee works; its county and city (from the ZIP data) choose the regional or local rule, over any `county` or `city` sent. A ZIP outside `state`, or not in the ZIP data, is a 400',
    example: '11201',
  })
  @IsOptional()
  @IsString()
  @Matches(ZIP_CODE, { message: 'zip_code must be exactly 5 digits' })
  zip_code?: string;

  @Dollars(MAX_HOURLY_DOLLARS, {
    example: 2.13,
    description:
      'The cash wage in dollars an hour (not cents). A fraction of a cent is dropped, so it can never carry the wage over a minimum.',
  })
  hourly_wage: number;

  @Dollars(MAX_HOURLY_DOLLARS, {
    example: 5.12,
    description: 'Average tips in dollars an hour (not cents). A fraction of a cent is dropped.',
  })
  average_tips_per_hour: number;

  @EmployeeId({
    optional: true,
    description: 'Not in the spec: whose wage this is, so that a flag of GET /analytics/tip-wage-theft can name them',
  })
  employee_id?: string;

  @OptionalMerchantId(ACTING_MERCHANT)
  merchant_id?: string;
}
