import { IsIn } from 'class-validator';
import { IsTransactionId } from '../get-transaction/get-transaction.request.dto';
import { RecordedId } from '../record-transaction/record-transaction.request.dto';
import { VOID_REASONS, type VoidReason } from '../transaction.events';

/** `POST /transaction/void`. */
export class VoidTransactionRequest {
  @IsTransactionId()
  original_transaction_id: string;

  @IsIn(VOID_REASONS)
  void_reason: VoidReason;

  @RecordedId()
  voided_by: string;
}
