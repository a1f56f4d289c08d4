import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { PAYOUT_METHODS, type PayoutMethod } from '../tip.events';
import { ACTING_MERCHANT, Dollars, EmployeeId, EmployeeName, MAX_TIP_DOLLARS, OptionalMerchantId } from '../tip-fields';

/** `POST /tip/payout`: tips handed to an employee. A partner key names the merchant in `merchant_id`. */
export class PayOutTipsRequest {
  @EmployeeId({
    description:
      'The employee paid, as the point of sale knows them; matched against the tips recorded for the same id',
  })
  employee_id: string;

  @EmployeeName()
  employee_name: string;

  @Dollars(MAX_TIP_DOLLARS, {
    positive: true,
    example: 45.5,
    description: 'Dollars (not cents). A fraction of a cent rounds up.',
  })
  payout_amount: number;

  @ApiProperty({ enum: PAYOUT_METHODS, example: 'cash' })
  @IsIn(PAYOUT_METHODS)
  payout_method: PayoutMethod;

  @OptionalMerchantId(ACTING_MERCHANT)
  merchant_id?: string;
}
