import { Controller, Get, Param, Query } from '@nestjs/common';
import { MinPositionRequest } from '../../platform/as-of-position';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../../platform/identity/current-principal.decorator';
import type { Principal } from '../../platform/identity/principal';
import { Roles } from '../../platform/identity/roles.decorator';
import { ApiDataAsOf } from '../../platform/read-replica/api-data-as-of.decorator';
import { ApiErrors } from '../../platform/openapi/api-errors.decorator';
import { GetRiskProfileQuery } from './get-risk-profile.query';
import { GetRiskProfileResponse } from './get-risk-profile.response.dto';
import { GetRiskProfileParams } from './get-risk-profile.request.dto';

@ApiTags('Risk and analytics')
@Controller()
export class GetRiskProfileController {
  constructor(private readonly queries: QueryBus) {}

  /** The spec: admin keys only. */
  @Get('merchant/:merchant_id/risk-profile')
  @Roles('admin')
  @ApiDataAsOf()
  @ApiOperation({
    operationId: 'getRiskProfile',
    summary: 'A merchant’s risk profile: its fraud score, the signals behind it, and the analyses they rest on',
    description:
      'The merchant’s rounding, overrides and voids analysed, and scored with the same signal table as a sale ' +
      '(docs/fraud-scoring.md): the score is the sum of the points of the signals that fired, capped at 100. Read from ' +
      'read models that follow the log asynchronously: `as_of_position` is the log position they are current as of. ' +
      'A merchant with no activity yet scores 0 (NONE).',
  })
  @ApiOkResponse({
    type: GetRiskProfileResponse,
    description: "The merchant's score, level, signals and the analyses behind them",
  })
  @ApiErrors({ 404: { NOT_FOUND: 'No merchant has this id' } })
  get(
    @Param() { merchant_id: merchantId }: GetRiskProfileParams,
    @Query() { min_position: minPosition }: MinPositionRequest,
    @CurrentPrincipal() principal: Principal,
  ): Promise<GetRiskProfileResponse> {
    return this.queries.execute(new GetRiskProfileQuery(merchantId, principal, minPosition));
  }
}
