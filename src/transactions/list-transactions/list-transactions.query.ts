import { Query } from '@nestjs/cqrs';
import { ApiProperty } from '@nestjs/swagger';
import type { Principal } from '../../platform/identity/principal';
import { PageAnswer } from '../../platform/page.request.dto';
import { TransactionView } from '../transaction.response.dto';
import type { ListTransactionsRequest } from './list-transactions.request.dto';

export class ListTransactionsResponse extends PageAnswer {
  @ApiProperty({ type: [TransactionView], description: 'Newest first' })
  transactions: TransactionView[];

  @ApiProperty({ type: 'integer', description: 'All the transactions that match, for paging', example: 1 })
  total: number;
}

export class ListTransactionsQuery extends Query<ListTransactionsResponse> {
  constructor(
    readonly request: ListTransactionsRequest,
    readonly principal: Principal,
  ) {
    super();
  }
}
