import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { TipSuccess } from '../tip-doc';
import { TipDistributionView } from '../tip.response.dto';

/** The spec: "each participant's share and the total distributed". */
@ApiSchema({ name: 'DistributedTipPool' })
export class DistributeTipPoolResponse {
  @TipSuccess()
  success: true;

  @ApiProperty({ type: TipDistributionView, description: 'Each participant’s share and the total distributed' })
  distribution: TipDistributionView;
}
