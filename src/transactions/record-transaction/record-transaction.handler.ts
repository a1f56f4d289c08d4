import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { eventMetadata } from '../../auth/command-context';
import { MerchantScope } from '../../auth/merchant-scope';
import { Clock } from '../../common/clock';
import { IdempotencyStore } from '../../common/idempotency';
import { EventStore } from '../../event-store/event-store.port';
import { DATABASE, type Database } from '../../event-store/sql';
import { JurisdictionResolver } from '../../jurisdiction/jurisdiction-resolver';
import { merchantHistory } from '../../../projections/transaction-list/transaction-list.projector';
import { SYMMETRIC_MODES, transactionDecider } from '../transaction.decider';
import { transactionStream, type TransactionRecordedData } from '../transaction.events';
import { withNewTransactionId } from '../transaction-id';
import { transactionView } from '../transaction-view';
import { RecordTransactionCommand, type RecordTransactionResponse } from './record-transaction.command';

/**
 * Resolves the rule in force on the sale's date, reads the merchant's recent history for the fraud
 * score, lets the decider record the sale, and appends it. The answer is built from the stored
 * event inside the append transaction, where the idempotency record is saved with it.
 */
@CommandHandler(RecordTransactionCommand)
export class RecordTransactionHandler implements ICommandHandler<RecordTransactionCommand, RecordTransactionResponse> {
  constructor(
    private readonly store: EventStore,
    @Inject(DATABASE) private readonly db: Database,
    private readonly clock: Clock,
    private readonly resolver: JurisdictionResolver,
    private readonly scope: MerchantScope,
    private readonly idempotency: IdempotencyStore,
  ) {}

  async execute({ sale, context, idempotency }: RecordTransactionCommand): Promise<RecordTransactionResponse> {
    await this.scope.assertCanActFor(context.principal, sale.merchant_id);
    const now = this.clock.now();
    const { zip_code, state, county, city } = sale;
    const jurisdiction = this.resolver.resolve({ zip_code, state, county, city, date: now.toISOString().slice(0, 10) });
    const history = await merchantHistory(this.db, {
      merchantId: sale.merchant_id,
      cashierId: sale.cashier_id ?? null,
      at: now,
      symmetricModes: SYMMETRIC_MODES,
    });
    const metadata = eventMetadata(context, sale.merchant_id);

    return withNewTransactionId(now, async (transactionId) => {
      // A fresh id has no stream to read: its state is the initial one, and expectedRevision 0 proves it.
      const events = transactionDecider.decide(
        { kind: 'RecordTransaction', transaction_id: transactionId, now: now.toISOString(), environment: context.principal.environment, sale, jurisdiction, history },
        transactionDecider.initialState(),
      );
      let response: RecordTransactionResponse | undefined;
      await this.store.append(
        transactionStream(transactionId),
        events.map(({ type, data }) => ({ type, data, metadata })),
        {
          expectedRevision: 0,
          inTransaction: async (tx, [stored]) => {
            response = { success: true, transaction: transactionView(stored.data as TransactionRecordedData, stored) };
            if (idempotency) await this.idempotency.save(tx, idempotency, response);
          },
        },
      );
      return response!;
    });
  }
}
