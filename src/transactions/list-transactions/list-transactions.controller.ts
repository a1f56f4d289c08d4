import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../../platform/identity/current-principal.decorator';
import type { Principal } from '../../platform/identity/principal';
import { Roles } from '../../platform/identity/roles.decorator';
import { ListTransactionsQuery } from './list-transactions.query';
import { ListTransactionsResponse } from './list-transactions.response.dto';
import { ListTransactionsRequest } from './list-transactions.request.dto';

@ApiTags('Transactions')
@Controller()
export class ListTransactionsController {
  constructor(private readonly queries: QueryBus) {}

  @Get('transactions')
  @Roles('merchant', 'auditor', 'partner')
  @ApiOperation({
    operationId: 'listTransactions',
    summary: "A merchant's transactions, newest first",
    description:
      "SALE, VOID and REFUND records, each as `POST /transaction` answers it, with a sale's current state and settlement. Paged by `limit` (default 50, at most 1,000; above is a 400) and `offset`; `total` counts every match. " +
      '`merchant_id` is required when the key sees several merchants (an auditor key, a partner key); naming a merchant the key may not see is a 403.',
  })
  @ApiOkResponse({ type: ListTransactionsResponse, description: 'A page of transactions' })
  list(
    @Query() query: ListTransactionsRequest,
    @CurrentPrincipal() principal: Principal,
  ): Promise<ListTransactionsResponse> {
    return this.queries.execute(new ListTransactionsQuery(query, principal));
  }
}
