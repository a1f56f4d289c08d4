import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { AsOfPosition } from '../../platform/as-of-position';
import { RiskProfileDto } from '../risk-analysis.response.dto';

/** The spec's merchant risk profile, with the log position its read models are current as of. */
@ApiSchema({ name: 'RiskProfile' })
export class GetRiskProfileResponse extends RiskProfileDto {
  @ApiProperty({ description: 'The merchant’s name', example: 'Quick Stop' })
  name: string;

  @AsOfPosition()
  as_of_position: number;
}
