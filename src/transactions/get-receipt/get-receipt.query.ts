import { Query } from '@nestjs/cqrs';
import { ApiProperty } from '@nestjs/swagger';
import { InclusionProofResponse, TreeHeadResponse } from '../../audit';
import type { Principal } from '../../platform/identity/principal';
import { TransactionDetail } from '../transaction.response.dto';
import { MerchantReceipt, PosReceipt, type ReceiptFormat } from './receipt';

export class MerchantReceiptResponse {
  @ApiProperty({ type: 'boolean', enum: [true], example: true })
  success: true;

  @ApiProperty({ enum: ['merchant'], example: 'merchant' })
  format: 'merchant';

  @ApiProperty({ type: MerchantReceipt })
  receipt: MerchantReceipt;
}

export class AuditReceiptResponse {
  @ApiProperty({ type: 'boolean', enum: [true], example: true })
  success: true;

  @ApiProperty({ enum: ['audit'], example: 'audit' })
  format: 'audit';

  @ApiProperty({ type: TransactionDetail, description: 'The full record: chain position, audit hash, fraud score and its entries in the chain' })
  receipt: TransactionDetail;

  @ApiProperty({ type: TreeHeadResponse, description: 'The tree head `inclusion_proof` leads to: keep it with the proof (`npm run verify-chain -- inclusion`)' })
  tree_head: TreeHeadResponse;

  @ApiProperty({ type: InclusionProofResponse, description: 'RFC 9162 inclusion proof of the record’s entry (`chain_position`) in the tree of `tree_head`' })
  inclusion_proof: InclusionProofResponse;
}

export class PosReceiptResponse {
  @ApiProperty({ type: 'boolean', enum: [true], example: true })
  success: true;

  @ApiProperty({ enum: ['pos'], example: 'pos' })
  format: 'pos';

  @ApiProperty({ type: PosReceipt })
  receipt: PosReceipt;
}

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
