import { ApiProperty } from '@nestjs/swagger';
import { TransactionDetail } from '../transaction.response.dto';

export class GetTransactionResponse {
  @ApiProperty({ type: 'boolean', enum: [true], example: true })
  success: true;

  @ApiProperty({ type: TransactionDetail })
  transaction: TransactionDetail;
}
