import { ApiProperty } from '@nestjs/swagger';
import { TipCreditCheckView, TipSuccess } from '../tip-view';

export class ValidateTipCreditResponse {
  @TipSuccess()
  success: true;

  @ApiProperty({ type: TipCreditCheckView })
  compliance: TipCreditCheckView;
}
