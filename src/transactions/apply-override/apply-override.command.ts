import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../../auth/command-context';
import type { IdempotentRequest } from '../../common/idempotency';
import type { OverrideRequest } from '../transaction.decider';
import type { OverrideView, TransactionDetail } from '../transaction-view';

/** The override record, and the sale it now settles. */
export interface ApplyOverrideResponse {
  success: true;
  override: OverrideView;
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
