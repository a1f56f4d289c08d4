import { Query } from '@nestjs/cqrs';
import type { Principal } from '../../auth/principal';
import type { Receipt, ReceiptFormat } from './receipt';

export type GetReceiptResponse = { success: true } & Receipt;

export class GetReceiptQuery extends Query<GetReceiptResponse> {
  constructor(
    readonly transactionId: string,
    readonly format: ReceiptFormat,
    readonly principal: Principal,
  ) {
    super();
  }
}
