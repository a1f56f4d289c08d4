import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { TipSuccess } from '../tip-doc';
import { TipPoolView } from '../tip.response.dto';

@ApiSchema({ name: 'CreatedTipPool' })
export class CreateTipPoolResponse {
  @TipSuccess()
  success: true;

  @ApiProperty({ type: TipPoolView })
  pool: TipPoolView;
}
