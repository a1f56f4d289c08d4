import { Query } from '@nestjs/cqrs';
import { ApiProperty } from '@nestjs/swagger';
import type { Principal } from '../../platform/identity/principal';
import { AsOfPosition } from '../../platform/as-of-position';
import { RiskProfileDto } from '../risk-analysis.response.dto';

/** The spec's merchant risk profile, with the log position its read models are current as of. */
export class GetRiskProfileResponse extends RiskProfileDto {
  @ApiProperty({ description: 'The merchant’s name', example: 'Quick Stop' })
  name: string;

  @AsOfPosition()
  as_of_position: number;
}

export class GetRiskProfileQuery extends Query<GetRiskProfileResponse> {
  constructor(
    readonly merchantId: string,
    readonly principal: Principal,
  ) {
    super();
  }
}
