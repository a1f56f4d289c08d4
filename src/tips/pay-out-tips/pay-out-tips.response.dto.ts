import { ApiProperty } from '@nestjs/swagger';
import { TipPayoutView, TipSuccess } from '../tip-view';

export class PayOutTipsResponse {
  @TipSuccess()
  success: true;

  @ApiProperty({ type: TipPayoutView })
  payout: TipPayoutView;
}
