import { Controller, Get, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { CurrentPrincipal } from '../../auth/current-principal.decorator';
import type { Principal } from '../../auth/principal';
import { Roles } from '../../auth/roles.decorator';
import { GetRiskProfileQuery, type GetRiskProfileResponse } from './get-risk-profile.query';
import { GetRiskProfileParams } from './get-risk-profile.request.dto';

@Controller()
export class GetRiskProfileController {
  constructor(private readonly queries: QueryBus) {}

  /** The spec: admin keys only. */
  @Get('merchant/:merchant_id/risk-profile')
  @Roles('admin')
  get(@Param() { merchant_id }: GetRiskProfileParams, @CurrentPrincipal() principal: Principal): Promise<GetRiskProfileResponse> {
    return this.queries.execute(new GetRiskProfileQuery(merchant_id, principal));
  }
}
