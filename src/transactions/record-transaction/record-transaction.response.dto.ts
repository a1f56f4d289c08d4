import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { TransactionView } from '../transaction.response.dto';

/** The spec's envelope for `POST /transaction`. */
@ApiSchema({ name: 'RecordedTransaction' })
export class RecordTransactionResponse {
  @ApiProperty({ type: 'boolean', enum: [true], example: true })
  success: true;

  @ApiProperty({ type: TransactionView, description: 'The SALE record as the hash chain holds it' })
  transaction: TransactionView;
}
