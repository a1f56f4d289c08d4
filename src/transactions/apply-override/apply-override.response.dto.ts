import { EntryPromiseResponse } from '../../audit/entry-promise.response.dto';
import { ApiProperty } from '@nestjs/swagger';
import { OverrideView, TransactionDetail } from '../transaction.response.dto';

/** The override record, and the sale it now settles. */
export class ApplyOverrideResponse {
  @ApiProperty({ type: 'boolean', enum: [true], example: true })
  success: true;

  @ApiProperty({ type: OverrideView, description: 'The override record' })
  override: OverrideView;

  @ApiProperty({
    type: TransactionDetail,
    description: 'The sale as it stands after the override: `overridden`, settled by the new cash total',
  })
  original: TransactionDetail;

  @ApiProperty({
    type: EntryPromiseResponse,
    nullable: true,
    description:
      'The log’s signed promise of the override’s entry, made at commit: keep it, and check it against any later tree head (`npm run verify-chain -- promise`). Null when checkpoint signing is off',
  })
  promise: EntryPromiseResponse | null;
}
