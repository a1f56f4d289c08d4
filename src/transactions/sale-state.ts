import type { Settlement, TransactionRecordedData, TransactionStatus } from './transaction.events';

/** A recorded sale: its settlement (what its latest override made it) and what its refunds handed back so far. */
export interface SaleState {
  status: TransactionStatus;
  sale: TransactionRecordedData;
  settlement: Settlement;
  refunded: { ledger_total_cents: number; cash_total_cents: number };
}

export type TransactionState = { status: 'none' } | SaleState;
