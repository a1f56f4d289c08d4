import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { Roles } from '../../auth/roles.decorator';
import { MerchantFilterRequest } from '../analytics-request.dto';
import { VoidAbuseQuery, type VoidAbuseResponse } from './void-abuse.query';

@Controller()
export class VoidAbuseController {
  constructor(private readonly queries: QueryBus) {}

  @Get('analytics/void-abuse')
  @Roles('admin', 'auditor')
  get(@Query() { merchant_id }: MerchantFilterRequest): Promise<VoidAbuseResponse> {
    return this.queries.execute(new VoidAbuseQuery(merchant_id ?? null));
  }
}
