import { EntryPromises } from '../../audit/entry-promises';
import { Inject } from '@nestjs/common';
import { CommandStep } from '../../platform/command-step';
import { eventMetadata } from '../../platform/identity/command-context';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '../../platform/clock';
import { newRecordId } from '../../platform/ids';
import { dollarsToCents } from '../../rules/money';
import { DATABASE, type Database } from '../../platform/event-store/sql';
import { findTip, tipsProjector } from '../read-model/tips.projector';
import { tipChangesAfter, tipFromLog } from '../read-model/tip-reads';
import { readCaughtUp } from '../../platform/projections/log-position';
import { readTransaction } from '../../transactions/read-model/transaction-reads';
import { assertTippable, tipDecider } from '../tip.decider';
import { TipPooledError, TipRecordNotFoundError } from '../tip.errors';
import { tipStream, type TipAdjustedData } from '../tip.events';
import { TIP_ID_PREFIX } from '../tip-ids';
import { TipMerchants } from '../tip-merchants';
import { adjustmentView } from '../tip-views';
import { AdjustTipCommand } from './adjust-tip.command';
import type { AdjustTipResponse } from './adjust-tip.response.dto';

@CommandHandler(AdjustTipCommand)
export class AdjustTipHandler implements ICommandHandler<AdjustTipCommand, AdjustTipResponse> {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly clock: Clock,
    private readonly merchants: TipMerchants,
    private readonly step: CommandStep,
    private readonly promises: EntryPromises,
  ) {}

  /**
   * Whether the tip sits in a pool is in the pools' streams, not the tip's: it is read from the tips
   * read model once it has applied the log as it was when the command started (readCaughtUp), and
   * checked again under the chain-head lock against the entries after that. The tip's own stream
   * revision serializes two adjustments of it.
   */
  async execute({ request, context, idempotency }: AdjustTipCommand): Promise<AdjustTipResponse> {
    const { result: tip, as_of_position: asOf } = await readCaughtUp(this.db, [tipsProjector], (tx) =>
      findTip(tx, request.tip_id),
    );
    const merchantId = await this.merchants.ownerOf(
      context.principal,
      request.merchant_id,
      tip?.merchant_id,
      () => new TipRecordNotFoundError('Tip', request.tip_id),
    );
    // ownerOf found the tip, or refused; its sale is there for as long as the tip is.
    const sale = (await readTransaction(this.db, tip!.transaction_id))!;
    const now = this.clock.now();
    const command = {
      kind: 'AdjustTip' as const,
      tip_id: request.tip_id,
      adjustment_id: newRecordId(TIP_ID_PREFIX.adjustment, now),
      new_amount_cents: dollarsToCents(request.new_amount, 'new_amount'),
      reason: request.reason,
      pool_id: tip!.pool_id,
      sale: { type: sale.type, state: sale.state },
      now: now.toISOString(),
    };
    const stream = tipStream(request.tip_id);
    return this.step.run(
      { stream, decider: tipDecider, command, metadata: eventMetadata(context, merchantId), idempotency },
      async (tx, [adjusted]) => {
        // A pool may have taken the tip, or a void or refund its sale, since they were read; under the chain-head lock the log is current.
        const [pooled] = (await tipChangesAfter(tx, asOf, [request.tip_id])).pooled;
        if (pooled) throw new TipPooledError(request.tip_id, pooled.pool_id);
        const current = (await tipFromLog(tx, request.tip_id, null))!;
        assertTippable(current.transaction_id, (await readTransaction(tx, current.transaction_id))!);
        return {
          success: true,
          adjustment: adjustmentView(adjusted.data as TipAdjustedData, adjusted),
          tip: current,
          promise: this.promises.of(adjusted),
        };
      },
    );
  }
}
