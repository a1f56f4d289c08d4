import { Inject, Injectable } from '@nestjs/common';
import { ChainAlarms } from '../audit/chain-alarms';
import { MerchantScope } from '../auth/merchant-scope';
import type { Principal } from '../platform/identity/principal';
import { DATABASE, type Database } from '../platform/event-store/sql';
import { readTransaction } from './read-model/transaction-reads';
import { NotASaleError, TransactionNotFoundError } from './transaction.errors';
import type { TransactionDetail } from './transaction.response.dto';

/** Transactions as a key may see them: from the transaction-list read model once it has caught up with them, else from the log. */
@Injectable()
export class TransactionDirectory {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly scope: MerchantScope,
    private readonly alarms: ChainAlarms,
  ) {}

  /**
   * Another merchant's transaction is answered exactly like an unknown id, so ids cannot be probed.
   * A row whose entry the log does not hold is answered as the log has it, not found, and raises the
   * chain alarm: someone added the row, or took its entry out of the log.
   */
  async find(principal: Principal, transactionId: string): Promise<TransactionDetail> {
    const transaction = await readTransaction(this.db, transactionId);
    if (!transaction) await this.alarmOnRowWithoutEntry(transactionId);
    if (!transaction || !(await this.scope.canSee(principal, transaction.merchant_id)))
      throw new TransactionNotFoundError(transactionId);
    return transaction;
  }

  /** Only on the way to a 404: the row the read missed, if there is one. */
  private async alarmOnRowWithoutEntry(transactionId: string): Promise<void> {
    const [row] = await this.db.query<{ position: string; audit_hash: string }>(
      'select position, audit_hash from rm_transactions where id = $1',
      [transactionId],
    );
    if (!row) return;
    const position = Number(row.position);
    await this.alarms.raise({
      source: 'read-model',
      kind: 'row-without-entry',
      position,
      detail:
        `rm_transactions holds ${transactionId} at position ${position} with hash ${row.audit_hash}, ` +
        'but the log holds no such entry recording it: the transaction is answered as not found',
    });
  }

  /** What an override, a void or a refund applies to. */
  async findSale(principal: Principal, transactionId: string): Promise<TransactionDetail> {
    const transaction = await this.find(principal, transactionId);
    if (transaction.type !== 'SALE') throw new NotASaleError(transactionId, transaction.type);
    return transaction;
  }
}
