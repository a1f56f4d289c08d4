import { Command } from '@nestjs/cqrs';
import { ApiProperty } from '@nestjs/swagger';
import type { CommandContext } from '../../platform/identity/command-context';
import type { IdempotentRequest } from '../../platform/idempotency/idempotency';
import type { SaleRequest } from '../sale.commands';
import { TransactionView } from '../transaction.response.dto';

/** The spec's envelope for `POST /transaction`. */
export class RecordTransactionResponse {
  @ApiProperty({ type: 'boolean', enum: [true], example: true })
  success: true;

  @ApiProperty({ type: TransactionView, description: 'The SALE record as the hash chain holds it' })
  transaction: TransactionView;
}

export class RecordTransactionCommand extends Command<RecordTransactionResponse> {
  constructor(
    readonly sale: SaleRequest,
    readonly context: CommandContext,
    /** Present when the client sent an Idempotency-Key: the answer is recorded with the event. */
    readonly idempotency?: IdempotentRequest,
  ) {
    super();
  }
}
