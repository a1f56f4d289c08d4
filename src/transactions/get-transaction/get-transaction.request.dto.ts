import { Matches } from 'class-validator';
import { TRANSACTION_ID_PATTERN } from '../transaction-id';

export class GetTransactionParams {
  @Matches(TRANSACTION_ID_PATTERN, { message: 'id must be a transaction id such as TXN-2026-01-31-7K3M9QXA' })
  id: string;
}
