import { EntryPromiseResponse } from '../../audit/entry-promise.response.dto';
import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { RecordedSaleView } from '../transaction.response.dto';

/** The spec's envelope for `POST /transaction`. */
@ApiSchema({ name: 'RecordedTransaction' })
export class RecordTransactionResponse {
  @ApiProperty({ type: 'boolean', enum: [true], example: true })
  success: true;

  @ApiProperty({
    type: RecordedSaleView,
    description: 'The SALE record as the hash chain holds it, its rule in summary',
  })
  transaction: RecordedSaleView;

  @ApiProperty({
    type: EntryPromiseResponse,
    nullable: true,
    description:
      'The log’s signed promise of the sale’s entry, made at commit: keep it, and check it against any later tree head (`npm run verify-chain -- promise`). Null when checkpoint signing is off',
  })
  promise: EntryPromiseResponse | null;
}
