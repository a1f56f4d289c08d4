import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { CurrentPrincipal } from '../../auth/current-principal.decorator';
import type { Principal } from '../../auth/principal';
import { Roles } from '../../auth/roles.decorator';
import { ListTransactionsQuery, type ListTransactionsResponse } from './list-transactions.query';
import { ListTransactionsRequest } from './list-transactions.request.dto';

@Controller()
export class ListTransactionsController {
  constructor(private readonly queries: QueryBus) {}

  @Get('transactions')
  @Roles('merchant', 'auditor', 'partner')
  list(@Query() query: ListTransactionsRequest, @CurrentPrincipal() principal: Principal): Promise<ListTransactionsResponse> {
    return this.queries.execute(new ListTransactionsQuery(query, principal));
  }
}
