import { Query } from '@nestjs/cqrs';
import type { Principal } from '../../platform/identity/principal';
import type { ReceiptFormat } from './receipt';
import { MerchantReceiptResponse, AuditReceiptResponse, PosReceiptResponse } from './get-receipt.response.dto';

/** One shape per `format`. */
export type GetReceiptResponse = MerchantReceiptResponse | AuditReceiptResponse | PosReceiptResponse;

export class GetReceiptQuery extends Query<GetReceiptResponse> {
  constructor(
    readonly transactionId: string,
    readonly format: ReceiptFormat,
    readonly principal: Principal,
  ) {
    super();
  }
}
