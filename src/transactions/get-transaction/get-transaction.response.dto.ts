import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { TransactionDetail } from '../transaction.response.dto';

@ApiSchema({ name: 'TransactionLookup' })
export class GetTransactionResponse {
  @ApiProperty({ type: 'boolean', enum: [true], example: true })
  success: true;

  @ApiProperty({ type: TransactionDetail })
  transaction: TransactionDetail;
}
