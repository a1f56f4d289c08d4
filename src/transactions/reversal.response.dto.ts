import { EntryPromiseResponse } from '../audit/entry-promise.response.dto';
import { ApiProperty } from '@nestjs/swagger';
import { TransactionDetail } from './transaction.response.dto';

/** `POST /transaction/void` and `/refund`: the new VOID or REFUND record, and the sale as it stands after it. */
export class ReversalResponse {
  @ApiProperty({ type: 'boolean', enum: [true], example: true })
  success: true;

  @ApiProperty({ type: TransactionDetail, description: 'The new VOID or REFUND record, with negative amounts' })
  transaction: TransactionDetail;

  @ApiProperty({
    type: TransactionDetail,
    description: 'The sale as it stands after it: `voided`, `partially_refunded` or `refunded`',
  })
  original: TransactionDetail;

  @ApiProperty({
    type: EntryPromiseResponse,
    nullable: true,
    description:
      'The log’s signed promise of the VOID or REFUND record’s entry, made at commit: keep it, and check it against any later tree head (`npm run verify-chain -- promise`). Null when checkpoint signing is off',
  })
  promise: EntryPromiseResponse | null;
}
