import { IsIn, IsInt, Max, Min } from 'class-validator';
import { IsTransactionId } from '../get-transaction/get-transaction.request.dto';
import { MAX_AMOUNT_CENTS, RecordedId } from '../record-transaction/record-transaction.request.dto';
import { REFUND_REASONS, type RefundReason } from '../transaction.events';

/** `POST /transaction/refund`. */
export class IssueRefundRequest {
  @IsTransactionId()
  original_transaction_id: string;

  /** Cents; a refund of nothing is no refund. */
  @IsInt({ message: 'refund_amount must be an integer number of cents' })
  @Min(1, { message: 'refund_amount must be at least 1 cent' })
  @Max(MAX_AMOUNT_CENTS, { message: `refund_amount must not exceed ${MAX_AMOUNT_CENTS} cents` })
  refund_amount: number;

  @IsIn(REFUND_REASONS)
  void_reason: RefundReason;

  @RecordedId()
  voided_by: string;
}
