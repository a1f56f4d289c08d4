import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { PageAnswer } from '../../platform/page.request.dto';
import { TransactionView } from '../transaction.response.dto';

@ApiSchema({ name: 'TransactionList' })
export class ListTransactionsResponse extends PageAnswer {
  @ApiProperty({ type: [TransactionView], description: 'Newest first' })
  transactions: TransactionView[];

  @ApiProperty({ type: 'integer', description: 'All the transactions that match, for paging', example: 1 })
  total: number;
}
