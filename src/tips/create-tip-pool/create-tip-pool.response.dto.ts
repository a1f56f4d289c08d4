import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { TipPoolView, TipSuccess } from '../tip-view';

@ApiSchema({ name: 'CreatedTipPool' })
export class CreateTipPoolResponse {
  @TipSuccess()
  success: true;

  @ApiProperty({ type: TipPoolView })
  pool: TipPoolView;
}
