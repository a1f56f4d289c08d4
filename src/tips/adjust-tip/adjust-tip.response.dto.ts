import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { TipAdjustmentView, TipSuccess, TipView } from '../tip-view';

/** The adjustment (the new record) and the tip as it now stands, with its whole history. */
@ApiSchema({ name: 'AdjustedTip' })
export class AdjustTipResponse {
  @TipSuccess()
  success: true;

  @ApiProperty({ type: TipAdjustmentView, description: 'The adjustment: a record of its own, with its entry in the chain' })
  adjustment: TipAdjustmentView;

  @ApiProperty({ type: TipView, description: 'The tip as it now stands, with its whole history' })
  tip: TipView;
}
