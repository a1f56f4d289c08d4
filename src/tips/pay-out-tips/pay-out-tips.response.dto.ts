import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { TipPayoutView, TipSuccess } from '../tip-view';

@ApiSchema({ name: 'RecordedPayout' })
export class PayOutTipsResponse {
  @TipSuccess()
  success: true;

  @ApiProperty({ type: TipPayoutView })
  payout: TipPayoutView;
}
