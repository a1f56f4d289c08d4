import { ApiProperty } from '@nestjs/swagger';
import { TipSuccess } from '../tip-doc';
import { TipView } from '../tip.response.dto';

export class RecordTipResponse {
  @TipSuccess()
  success: true;

  @ApiProperty({ type: TipView, description: 'The tip as recorded, with its entry in the chain' })
  tip: TipView;
}
