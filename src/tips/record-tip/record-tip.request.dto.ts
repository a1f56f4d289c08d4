import { IsString, Matches } from 'class-validator';
import { TRANSACTION_ID_PATTERN } from '../../transactions/transaction-id';
import { Dollars, EmployeeId, EmployeeName, MAX_TIP_DOLLARS, OptionalMerchantId } from '../tip-fields';

/** `POST /tip/cash` and `POST /tip/credit-card`. */
export class RecordTipRequest {
  @IsString()
  @Matches(TRANSACTION_ID_PATTERN, { message: 'transaction_id must be a transaction id such as TXN-2026-01-31-7K3M9QXA' })
  transaction_id: string;

  @EmployeeId()
  employee_id: string;

  @EmployeeName()
  employee_name: string;

  @Dollars(MAX_TIP_DOLLARS, { positive: true })
  tip_amount: number;

  @OptionalMerchantId()
  merchant_id?: string;
}
