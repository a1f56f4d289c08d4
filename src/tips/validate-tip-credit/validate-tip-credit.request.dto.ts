import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';
import { ACTING_MERCHANT, Dollars, EmployeeId, MAX_HOURLY_DOLLARS, OptionalMerchantId } from '../tip-fields';

const STATE_PATTERN = /^[A-Za-z]{2}$/;

/** `POST /tip/validate-compliance`. `employee_id` (not in the spec) lets a flag name whose wage it was. */
export class ValidateTipCreditRequest {
  /** A state's code, or `US` for FLSA alone. */
  @ApiProperty({
    type: 'string',
    pattern: STATE_PATTERN.source,
    description: 'A state’s or territory’s two-letter code, in either case, or `US` for FLSA alone. A code without tip credit rules is a 400.',
    example: 'TX',
  })
  @IsString()
  @Matches(STATE_PATTERN, { message: 'state must be a two-letter state code' })
  state: string;

  @Dollars(MAX_HOURLY_DOLLARS, {
    example: 2.13,
    description: 'The cash wage in dollars an hour (not cents). A fraction of a cent is dropped, so it can never carry the wage over a minimum.',
  })
  hourly_wage: number;

  @Dollars(MAX_HOURLY_DOLLARS, { example: 5.12, description: 'Average tips in dollars an hour (not cents). A fraction of a cent is dropped.' })
  average_tips_per_hour: number;

  @EmployeeId({ optional: true, description: 'Not in the spec: whose wage this is, so that a flag of GET /analytics/tip-wage-theft can name them' })
  employee_id?: string;

  @OptionalMerchantId(ACTING_MERCHANT)
  merchant_id?: string;
}
