import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';
import { TRANSACTION_ID_PATTERN } from '../../transactions/transaction-id';
import { Dollars, EmployeeId, EmployeeName, MAX_TIP_DOLLARS, OptionalMerchantId, RECORD_MERCHANT } from '../tip-fields';

/** `POST /tip/cash` and `POST /tip/credit-card`. */
export class RecordTipRequest {
  @ApiProperty({
    type: 'string',
    pattern: TRANSACTION_ID_PATTERN.source,
    description: 'The sale the tip was left on',
    example: 'TXN-2026-11-21-8F3K2Q7M',
  })
  @IsString()
  @Matches(TRANSACTION_ID_PATTERN, {
    message: 'transaction_id must be a transaction id such as TXN-2026-01-31-7K3M9QXA',
  })
  transaction_id: string;

  @EmployeeId({ description: 'The employee the tip is for, as the point of sale knows them' })
  employee_id: string;

  @EmployeeName()
  employee_name: string;

  @Dollars(MAX_TIP_DOLLARS, {
    positive: true,
    example: 3.5,
    description:
      'Dollars (not cents). Read as the decimal written; a fraction of a cent rounds up, in the employee’s favour (10.005 is 1001 cents).',
  })
  tip_amount: number;

  @OptionalMerchantId(RECORD_MERCHANT)
  merchant_id?: string;
}
