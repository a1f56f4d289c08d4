import { Query } from '@nestjs/cqrs';
import type { Principal } from '../../auth/principal';
import type { TransactionDetail } from '../transaction-view';

export interface GetTransactionResponse {
  success: true;
  transaction: TransactionDetail;
}

export class GetTransactionQuery extends Query<GetTransactionResponse> {
  constructor(
    readonly transactionId: string,
    readonly principal: Principal,
  ) {
    super();
  }
}
