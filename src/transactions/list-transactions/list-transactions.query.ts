import { Query } from '@nestjs/cqrs';
import type { Principal } from '../../platform/identity/principal';
import type { ListTransactionsRequest } from './list-transactions.request.dto';
import { ListTransactionsResponse } from './list-transactions.response.dto';

export class ListTransactionsQuery extends Query<ListTransactionsResponse> {
  constructor(
    readonly request: ListTransactionsRequest,
    readonly principal: Principal,
  ) {
    super();
  }
}
