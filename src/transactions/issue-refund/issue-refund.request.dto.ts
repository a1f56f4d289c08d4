import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsInt, Max, Min } from 'class-validator';
import { IsTransactionId } from '../transaction.request.dto';
import { MAX_AMOUNT_CENTS, RecordedId } from '../transaction.request.dto';
import { REFUND_REASONS, type RefundReason } from '../transaction.events';

/** A refund of nothing is no refund. */
const MIN_REFUND_CENTS = 1;

/** `POST /transaction/refund`. */
export class IssueRefundRequest {
  @IsTransactionId('The sale to refund')
  original_transaction_id: string;

  /** Cents; a refund of nothing is no refund. */
  @ApiProperty({
    type: 'integer',
    minimum: MIN_REFUND_CENTS,
    maximum: MAX_AMOUNT_CENTS,
    example: 500,
    description:
      "Cents handed back, at most the sale's `refundable_cents`: its settled cash total for a full refund, less for a partial one. " +
      "Rounded under the sale's mode when the sale's cash was rounded; the refund that hands back the rest returns exactly what is left",
  })
  @IsInt({ message: 'refund_amount must be an integer number of cents' })
  @Min(MIN_REFUND_CENTS, { message: 'refund_amount must be at least 1 cent' })
  @Max(MAX_AMOUNT_CENTS, { message: `refund_amount must not exceed ${MAX_AMOUNT_CENTS} cents` })
  refund_amount: number;

  @ApiProperty({ enum: REFUND_REASONS, example: 'defective_product' })
  @IsIn(REFUND_REASONS)
  void_reason: RefundReason;

  @RecordedId({ example: 'cashier-207', description: 'The employee processing the refund' })
  voided_by: string;
}
