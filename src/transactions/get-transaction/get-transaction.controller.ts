import { Controller, Get, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { CurrentPrincipal } from '../../auth/current-principal.decorator';
import type { Principal } from '../../auth/principal';
import { Roles } from '../../auth/roles.decorator';
import { GetTransactionQuery, type GetTransactionResponse } from './get-transaction.query';
import { GetTransactionParams } from './get-transaction.request.dto';

@Controller()
export class GetTransactionController {
  constructor(private readonly queries: QueryBus) {}

  /** Auditors may read a transaction as they may list it: GET /transactions admits them. */
  @Get('transaction/:id')
  @Roles('merchant', 'auditor', 'partner')
  get(@Param() { id }: GetTransactionParams, @CurrentPrincipal() principal: Principal): Promise<GetTransactionResponse> {
    return this.queries.execute(new GetTransactionQuery(id, principal));
  }
}
