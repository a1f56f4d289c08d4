import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { IsTransactionId } from '../transaction.request.dto';
import { RecordedId } from '../transaction.request.dto';
import { VOID_REASONS, type VoidReason } from '../transaction.events';

/** `POST /transaction/void`. */
export class VoidTransactionRequest {
  @IsTransactionId('The sale to void')
  original_transaction_id: string;

  @ApiProperty({
    enum: VOID_REASONS,
    example: 'pricing_error',
    description:
      "`customer_changed_mind` only shortly after the sale; `employee_error` must be authorized by another employee than the sale's cashier",
  })
  @IsIn(VOID_REASONS)
  void_reason: VoidReason;

  @RecordedId({ example: 'mgr-014', description: 'The employee authorizing the void' })
  voided_by: string;
}
