import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AppConfig } from '../../platform/config/config';
import { SaleChanges } from '../sale-changes';
import type { ReversalResponse } from '../reversal.response.dto';
import { IssueRefundCommand } from './issue-refund.command';

/**
 * Never blocked by the normalization check: a failure is flagged on the REFUND record (WARN) and in
 * its event. Bounded by what the sale settled and by its price plus the override tolerance.
 */
@CommandHandler(IssueRefundCommand)
export class IssueRefundHandler implements ICommandHandler<IssueRefundCommand, ReversalResponse> {
  constructor(
    private readonly changes: SaleChanges,
    private readonly config: AppConfig,
  ) {}

  execute({ request, context, idempotency }: IssueRefundCommand): Promise<ReversalResponse> {
    return this.changes.reverse(request.original_transaction_id, context, idempotency, (transactionId, now) => ({
      kind: 'IssueRefund',
      transaction_id: transactionId,
      now,
      refund: request,
      bounds: { tolerance_cents: this.config.overrideToleranceCents },
    }));
  }
}
