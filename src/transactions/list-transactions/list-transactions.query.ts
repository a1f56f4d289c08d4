import { Query } from '@nestjs/cqrs';
import type { Principal } from '../../auth/principal';
import type { TransactionView } from '../transaction-view';
import type { ListTransactionsRequest } from './list-transactions.request.dto';

export interface ListTransactionsResponse {
  transactions: TransactionView[];
  total: number;
  limit: number;
  offset: number;
}

export class ListTransactionsQuery extends Query<ListTransactionsResponse> {
  constructor(
    readonly request: ListTransactionsRequest,
    readonly principal: Principal,
  ) {
    super();
  }
}
