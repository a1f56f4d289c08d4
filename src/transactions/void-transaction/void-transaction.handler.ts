import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AppConfig } from '../../platform/config/config';
import { SaleChanges } from '../sale-changes';
import type { ReversalResponse } from '../reversal.response.dto';
import type { VoidPolicy } from '../sale.commands';
import { VoidTransactionCommand } from './void-transaction.command';

@CommandHandler(VoidTransactionCommand)
export class VoidTransactionHandler implements ICommandHandler<VoidTransactionCommand, ReversalResponse> {
  private readonly policy: VoidPolicy;

  constructor(
    private readonly changes: SaleChanges,
    config: AppConfig,
  ) {
    this.policy = {
      time_limit_minutes: config.voidTimeLimitHours * 60,
      amount_threshold_cents: config.voidAmountThresholdCents,
      changed_mind_minutes: config.voidChangedMindMinutes,
    };
  }

  execute({ request, context, idempotency }: VoidTransactionCommand): Promise<ReversalResponse> {
    return this.changes.reverse(request.original_transaction_id, context, idempotency, (transactionId, now) => ({
      kind: 'VoidTransaction',
      transaction_id: transactionId,
      now,
      void: request,
      policy: this.policy,
    }));
  }
}
