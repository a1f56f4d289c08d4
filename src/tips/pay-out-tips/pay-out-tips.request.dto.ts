import { IsIn } from 'class-validator';
import { PAYOUT_METHODS, type PayoutMethod } from '../tip.events';
import { Dollars, EmployeeId, EmployeeName, MAX_TIP_DOLLARS, OptionalMerchantId } from '../tip-fields';

/** `POST /tip/payout`: tips handed to an employee. A partner key names the merchant in `merchant_id`. */
export class PayOutTipsRequest {
  @EmployeeId()
  employee_id: string;

  @EmployeeName()
  employee_name: string;

  @Dollars(MAX_TIP_DOLLARS, { positive: true })
  payout_amount: number;

  @IsIn(PAYOUT_METHODS)
  payout_method: PayoutMethod;

  @OptionalMerchantId()
  merchant_id?: string;
}
