import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Roles } from '../../platform/identity/roles.decorator';
import { ApiDataAsOf } from '../../platform/read-replica/api-data-as-of.decorator';
import { MerchantFilterRequest } from '../analytics-request.dto';
import { VoidAbuseQuery } from './void-abuse.query';
import { VoidAbuseResponse } from './void-abuse.response.dto';

@ApiTags('Risk and analytics')
@Controller()
export class VoidAbuseController {
  constructor(private readonly queries: QueryBus) {}

  @Get('analytics/void-abuse')
  @Roles('admin', 'auditor')
  @ApiDataAsOf()
  @ApiOperation({
    operationId: 'getVoidAbuse',
    summary:
      'Void-abuse flags: high void rates, normalization failures, voids clustered at shift changes or on one employee',
    description:
      'The void signals of the merchant risk score, merchant by merchant, each with the VOID or REFUND records it rests on. ' +
      'Shift changes are configuration (UTC hours, and a window either side). Read from a read model that follows the log ' +
      'asynchronously (`as_of_position`).',
  })
  @ApiOkResponse({ type: VoidAbuseResponse, description: 'Each merchant with void-abuse flags, with the evidence' })
  get(
    @Query() { merchant_id: merchantId, min_position: minPosition }: MerchantFilterRequest,
  ): Promise<VoidAbuseResponse> {
    return this.queries.execute(new VoidAbuseQuery(merchantId ?? null, minPosition));
  }
}
