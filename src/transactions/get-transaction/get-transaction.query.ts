import { Query } from '@nestjs/cqrs';
import type { Principal } from '../../platform/identity/principal';
import { GetTransactionResponse } from './get-transaction.response.dto';

export class GetTransactionQuery extends Query<GetTransactionResponse> {
  constructor(
    readonly transactionId: string,
    readonly principal: Principal,
  ) {
    super();
  }
}
