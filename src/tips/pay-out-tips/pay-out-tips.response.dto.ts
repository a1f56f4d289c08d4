import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { TipSuccess } from '../tip-doc';
import { TipPayoutView } from '../tip.response.dto';

@ApiSchema({ name: 'RecordedPayout' })
export class PayOutTipsResponse {
  @TipSuccess()
  success: true;

  @ApiProperty({ type: TipPayoutView })
  payout: TipPayoutView;
}
