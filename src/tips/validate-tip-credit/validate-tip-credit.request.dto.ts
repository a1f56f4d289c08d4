import { IsOptional, IsString, Matches } from 'class-validator';
import { Dollars, EmployeeId, MAX_HOURLY_DOLLARS, OptionalMerchantId } from '../tip-fields';

/** `POST /tip/validate-compliance`. `employee_id` (not in the spec) lets a flag name whose wage it was. */
export class ValidateTipCreditRequest {
  /** A state's code, or `US` for FLSA alone. */
  @IsString()
  @Matches(/^[A-Za-z]{2}$/, { message: 'state must be a two-letter state code' })
  state: string;

  @Dollars(MAX_HOURLY_DOLLARS)
  hourly_wage: number;

  @Dollars(MAX_HOURLY_DOLLARS)
  average_tips_per_hour: number;

  @IsOptional()
  @EmployeeId()
  employee_id?: string;

  @OptionalMerchantId()
  merchant_id?: string;
}
