import { Query } from '@nestjs/cqrs';
import { ApiProperty } from '@nestjs/swagger';
import type { Principal } from '../../auth/principal';
import { RiskProfile } from '../merchant-score';

/** The spec's merchant risk profile, with the log position its read models are current as of. */
export class GetRiskProfileResponse extends RiskProfile {
  @ApiProperty({ description: 'The merchant’s name', example: 'Quick Stop' })
  name: string;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'The log position the analyses are current as of: they are read from read models that follow the log asynchronously',
    example: 18_204,
  })
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
