import { ApiProperty } from '@nestjs/swagger';
import { TipSuccess } from '../tip-doc';
import { TipCreditCheckView } from '../tip.response.dto';

export class ValidateTipCreditResponse {
  @TipSuccess()
  success: true;

  @ApiProperty({ type: TipCreditCheckView })
  compliance: TipCreditCheckView;
}
