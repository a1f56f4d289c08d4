import { Command } from '@nestjs/cqrs';
import { ApiProperty } from '@nestjs/swagger';
import type { CommandContext } from '../../platform/identity/command-context';
import type { IdempotentRequest } from '../../platform/idempotency/idempotency';
import type { OverrideRequest } from '../sale.commands';
import { OverrideView, TransactionDetail } from '../transaction.response.dto';

/** The override record, and the sale it now settles. */
export class ApplyOverrideResponse {
  @ApiProperty({ type: 'boolean', enum: [true], example: true })
  success: true;

  @ApiProperty({ type: OverrideView, description: 'The override record' })
  override: OverrideView;

  @ApiProperty({ type: TransactionDetail, description: 'The sale as it stands after the override: `overridden`, settled by the new cash total' })
  original: TransactionDetail;
}

export class ApplyOverrideCommand extends Command<ApplyOverrideResponse> {
  constructor(
    readonly override: OverrideRequest,
    readonly context: CommandContext,
    readonly idempotency?: IdempotentRequest,
  ) {
    super();
  }
}
