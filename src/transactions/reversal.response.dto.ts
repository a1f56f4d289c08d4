import { ApiProperty } from '@nestjs/swagger';
import { TransactionDetail } from './transaction.response.dto';

/** `POST /transaction/void` and `/refund`: the new VOID or REFUND record, and the sale as it stands after it. */
export class ReversalResponse {
  @ApiProperty({ type: 'boolean', enum: [true], example: true })
  success: true;

  @ApiProperty({ type: TransactionDetail, description: 'The new VOID or REFUND record, with negative amounts' })
  transaction: TransactionDetail;

  @ApiProperty({ type: TransactionDetail, description: 'The sale as it stands after it: `voided`, `partially_refunded` or `refunded`' })
  original: TransactionDetail;
}
