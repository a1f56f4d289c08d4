import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { eventMetadata } from '../../platform/identity/command-context';
import { MerchantScope } from '../../auth/merchant-scope';
import { EntryPromises } from '../../audit/entry-promises';
import { Clock } from '../../platform/clock';
import { CommandStep } from '../../platform/command-step';
import { JurisdictionRuleStore } from '../../jurisdiction/rule-store';
import { SaleInputsReader } from '../read-model/sale-inputs';
import { transactionDecider } from '../transaction.decider';
import { transactionStream, type TransactionRecordedData } from '../transaction.events';
import { TRANSACTION_ID_PREFIX } from '../transaction-id';
import { recordedSaleView } from '../read-model/transaction-view';
import { claimRecordId } from '../read-model/transaction-reads';
import { RecordTransactionCommand } from './record-transaction.command';
import type { RecordTransactionResponse } from './record-transaction.response.dto';

/**
 * Resolves the rule in force on the sale's date, reads the merchant's recent history for the fraud
 * score from the transaction list (the sale records the log position it reflected) and its rounding policy (in one statement with the sales read beside it), lets the decider
 * record the sale, naming the log entries of the rule and policy, and appends it. The answer is built from the stored event inside the append
 * transaction, where the idempotency record is saved with it.
 */
@CommandHandler(RecordTransactionCommand)
export class RecordTransactionHandler implements ICommandHandler<RecordTransactionCommand, RecordTransactionResponse> {
  constructor(
    private readonly clock: Clock,
    private readonly resolver: JurisdictionRuleStore,
    private readonly scope: MerchantScope,
    private readonly step: CommandStep,
    private readonly promises: EntryPromises,
    private readonly inputs: SaleInputsReader,
  ) {}

  async execute({ sale, context, idempotency }: RecordTransactionCommand): Promise<RecordTransactionResponse> {
    await this.scope.assertCanActFor(context.principal, sale.merchant_id);
    const now = this.clock.now();
    const { zip_code: zipCode, state, county, city } = sale;
    const jurisdiction = this.resolver.resolve({
      zip_code: zipCode,
      state,
      county,
      city,
      date: now.toISOString().slice(0, 10),
    });
    const {
      history,
      history_position: historyPosition,
      rounding_policy: roundingPolicy,
      policy_entry: policyEntry,
    } = await this.inputs.read({
      merchantId: sale.merchant_id,
      cashierId: sale.cashier_id ?? null,
      at: now,
    });
    const metadata = eventMetadata(context, sale.merchant_id);

    return this.step.runNew(
      TRANSACTION_ID_PREFIX,
      now,
      (transactionId) => {
        const command = {
          kind: 'RecordTransaction' as const,
          transaction_id: transactionId,
          now: now.toISOString(),
          environment: context.principal.environment,
          sale,
          jurisdiction,
          history,
          history_position: historyPosition,
          rounding_policy: roundingPolicy,
          rule_entry: this.resolver.entryOf(jurisdiction.rule),
          policy_entry: policyEntry,
        };
        return {
          stream: transactionStream(transactionId),
          decider: transactionDecider,
          command,
          metadata,
          idempotency,
        };
      },
      (tx, [stored], transactionId) => {
        claimRecordId(tx, transactionId, stored.position);
        return {
          success: true as const,
          transaction: recordedSaleView(stored.data as TransactionRecordedData, stored),
          promise: this.promises.of(stored),
        };
      },
    );
  }
}
