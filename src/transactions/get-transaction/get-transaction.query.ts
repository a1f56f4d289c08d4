import { Query } from '@nestjs/cqrs';
import { ApiProperty } from '@nestjs/swagger';
import type { Principal } from '../../platform/identity/principal';
import { TransactionDetail } from '../transaction.response.dto';

export class GetTransactionResponse {
  @ApiProperty({ type: 'boolean', enum: [true], example: true })
  success: true;

  @ApiProperty({ type: TransactionDetail })
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
