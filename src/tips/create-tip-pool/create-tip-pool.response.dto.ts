import { ApiProperty } from '@nestjs/swagger';
import { TipPoolView, TipSuccess } from '../tip-view';

export class CreateTipPoolResponse {
  @TipSuccess()
  success: true;

  @ApiProperty({ type: TipPoolView })
  pool: TipPoolView;
}
