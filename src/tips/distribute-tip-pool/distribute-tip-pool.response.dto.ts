import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { TipDistributionView, TipSuccess } from '../tip-view';

/** The spec: "each participant's share and the total distributed". */
@ApiSchema({ name: 'DistributedTipPool' })
export class DistributeTipPoolResponse {
  @TipSuccess()
  success: true;

  @ApiProperty({ type: TipDistributionView, description: 'Each participant’s share and the total distributed' })
  distribution: TipDistributionView;
}
