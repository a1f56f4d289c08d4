import { IsIn, IsString, Length, Matches } from 'class-validator';
import { IsTransactionId } from '../get-transaction/get-transaction.request.dto';
import { Cents, RecordedId } from '../record-transaction/record-transaction.request.dto';
import { OVERRIDE_REASONS, type OverrideReason } from '../transaction.events';

/** `POST /transaction/override`. */
export class ApplyOverrideRequest {
  @IsTransactionId()
  transaction_id: string;

  @RecordedId()
  employee_id: string;

  /** Recorded verbatim: neither trimmed nor normalized, only bounded. */
  @IsString()
  @Length(1, 200)
  @Matches(/\S/, { message: 'employee_name must not be blank' })
  employee_name: string;

  @IsIn(OVERRIDE_REASONS)
  reason: OverrideReason;

  @Cents()
  new_cash_total_cents: number;
}
