import { Query } from '@nestjs/cqrs';
import type { Principal } from '../../platform/identity/principal';
import { GetRiskProfileResponse } from './get-risk-profile.response.dto';

export class GetRiskProfileQuery extends Query<GetRiskProfileResponse> {
  constructor(
    readonly merchantId: string,
    readonly principal: Principal,
    readonly minPosition?: number,
  ) {
    super();
  }
}
