import { ApiProperty } from '@nestjs/swagger';
import { OverrideView, TransactionDetail } from '../transaction.response.dto';

/** The override record, and the sale it now settles. */
export class ApplyOverrideResponse {
  @ApiProperty({ type: 'boolean', enum: [true], example: true })
  success: true;

  @ApiProperty({ type: OverrideView, description: 'The override record' })
  override: OverrideView;

  @ApiProperty({ type: TransactionDetail, description: 'The sale as it stands after the override: `overridden`, settled by the new cash total' })
  original: TransactionDetail;
}
