import { ApiProperty } from '@nestjs/swagger';
import { TipSuccess, TipView } from '../tip-view';

export class RecordTipResponse {
  @TipSuccess()
  success: true;

  @ApiProperty({ type: TipView, description: 'The tip as recorded, with its entry in the chain' })
  tip: TipView;
}
