import { EntryPromiseResponse } from '../../audit/entry-promise.response.dto';
import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { TipSuccess } from '../tip-doc';
import { TipAdjustmentView, TipView } from '../tip.response.dto';

/** The adjustment (the new record) and the tip as it now stands, with its whole history. */
@ApiSchema({ name: 'AdjustedTip' })
export class AdjustTipResponse {
  @TipSuccess()
  success: true;

  @ApiProperty({
    type: TipAdjustmentView,
    description: 'The adjustment: a record of its own, with its entry in the chain',
  })
  adjustment: TipAdjustmentView;

  @ApiProperty({ type: TipView, description: 'The tip as it now stands, with its whole history' })
  tip: TipView;

  @ApiProperty({
    type: EntryPromiseResponse,
    nullable: true,
    description:
      'The log’s signed promise of the adjustment’s entry, made at commit: keep it, and check it against any later tree head (`npm run verify-chain -- promise`). Null when checkpoint signing is off',
  })
  promise: EntryPromiseResponse | null;
}
