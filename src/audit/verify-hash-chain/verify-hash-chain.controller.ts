import { Controller, Get, Header, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { Roles } from '../../auth/roles.decorator';
import { VerifyHashChainQuery, type VerifyHashChainResponse } from './verify-hash-chain.query';
import { VerifyHashChainRequest } from './verify-hash-chain.request.dto';

@Controller()
export class VerifyHashChainController {
  constructor(private readonly queries: QueryBus) {}

  @Get('admin/verify-hash-chain')
  @Roles('auditor', 'admin')
  @Header('Cache-Control', 'no-store')
  verify(@Query() query: VerifyHashChainRequest): Promise<VerifyHashChainResponse> {
    return this.queries.execute(new VerifyHashChainQuery(query));
  }
}
