import { EntryPromises } from '../../audit/entry-promises';
import { Inject } from '@nestjs/common';
import { CommandStep } from '../../platform/command-step';
import { eventMetadata } from '../../platform/identity/command-context';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '../../platform/clock';
import { dollarsToCents } from '../../rules/money';
import { DATABASE, type Database } from '../../platform/event-store/sql';
import { tipFromLog } from '../read-model/tip-reads';
import { readTransaction } from '../../transactions/read-model/transaction-reads';
import { assertTippable, tipDecider } from '../tip.decider';
import { TipRecordNotFoundError } from '../tip.errors';
import { tipStream } from '../tip.events';
import { TIP_ID_PREFIX } from '../tip-ids';
import { TipMerchants } from '../tip-merchants';
import { RecordTipCommand } from './record-tip.command';
import type { RecordTipResponse } from './record-tip.response.dto';

/** A tip rides on a sale of the caller's merchant; another merchant's sale is answered like a missing one. */
@CommandHandler(RecordTipCommand)
export class RecordTipHandler implements ICommandHandler<RecordTipCommand, RecordTipResponse> {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly clock: Clock,
    private readonly merchants: TipMerchants,
    private readonly step: CommandStep,
    private readonly promises: EntryPromises,
  ) {}

  async execute({ method, request, context, idempotency }: RecordTipCommand): Promise<RecordTipResponse> {
    const sale = await readTransaction(this.db, request.transaction_id);
    const merchantId = await this.merchants.ownerOf(
      context.principal,
      request.merchant_id,
      sale?.merchant_id,
      () => new TipRecordNotFoundError('Transaction', request.transaction_id),
    );
    const now = this.clock.now();
    return this.step.runNew(
      TIP_ID_PREFIX.tip,
      now,
      (tipId) => {
        const command = {
          kind: 'RecordTip' as const,
          tip_id: tipId,
          merchant_id: merchantId,
          transaction_id: request.transaction_id,
          // ownerOf found the sale, or refused.
          sale: { type: sale!.type, state: sale!.state, ledger_total_cents: sale!.calculation.ledger_total_cents },
          method,
          employee_id: request.employee_id,
          employee_name: request.employee_name,
          amount_cents: dollarsToCents(request.tip_amount, 'tip_amount'),
          now: now.toISOString(),
        };
        return {
          stream: tipStream(tipId),
          decider: tipDecider,
          command,
          metadata: eventMetadata(context, merchantId),
          idempotency,
        };
      },
      async (tx, [recorded], tipId) => {
        // A void or refund may have taken the sale since it was read; under the chain-head lock the log is current.
        assertTippable(request.transaction_id, (await readTransaction(tx, request.transaction_id))!);
        return { success: true, tip: (await tipFromLog(tx, tipId, null))!, promise: this.promises.of(recorded) };
      },
    );
  }
}
