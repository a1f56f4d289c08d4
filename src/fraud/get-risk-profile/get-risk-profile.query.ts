import { Query } from '@nestjs/cqrs';
import type { Principal } from '../../auth/principal';
import type { RiskProfile } from '../merchant-score';

/** The spec's merchant risk profile, with the log position its read models are current as of. */
export type GetRiskProfileResponse = RiskProfile & { name: string; as_of_position: number };

export class GetRiskProfileQuery extends Query<GetRiskProfileResponse> {
  constructor(
    readonly merchantId: string,
    readonly principal: Principal,
  ) {
    super();
  }
}
