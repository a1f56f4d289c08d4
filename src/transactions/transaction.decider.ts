import type { Decider } from '../platform/decider';
import { DomainError } from '../platform/errors/domain-error';
import { AlreadyRefundedError, AlreadyVoidedError, TransactionNotFoundError } from './transaction.errors';
import type { TransactionEvent } from './transaction.events';
import { recordSale } from './record-sale';
import type { TransactionCommand } from './sale.commands';
import { applyOverride } from './sale-override';
import { refundSale, voidSale } from './sale-reversal';
import type { SaleState, TransactionState } from './sale-state';

/** The sale's stream: each command's decision is in the file named for it (record-sale, sale-override, sale-reversal). */
export const transactionDecider: Decider<TransactionCommand, TransactionState, TransactionEvent> = {
  initialState: () => ({ status: 'none' }),

  evolve(state, event) {
    if (event.type === 'TransactionRecorded') {
      const { cash_total_cents: cashTotalCents, rounding_delta_cents: roundingDeltaCents } = event.data.calculation;
      return {
        status: 'completed',
        sale: event.data,
        settlement: { cash_total_cents: cashTotalCents, rounding_delta_cents: roundingDeltaCents },
        refunded: { ledger_total_cents: 0, cash_total_cents: 0 },
      };
    }
    if (state.status === 'none') return state;
    switch (event.type) {
      case 'OverrideApplied': {
        const { new_cash_total_cents: newCashTotalCents, rounding_delta_cents: roundingDeltaCents } = event.data;
        return {
          ...state,
          status: 'overridden',
          settlement: { cash_total_cents: newCashTotalCents, rounding_delta_cents: roundingDeltaCents },
        };
      }
      case 'TransactionVoided':
        return { ...state, status: 'voided' };
      case 'RefundIssued': {
        const refunded = {
          ledger_total_cents: state.refunded.ledger_total_cents - event.data.calculation.ledger_total_cents,
          cash_total_cents: state.refunded.cash_total_cents - event.data.calculation.cash_total_cents,
        };
        const status =
          refunded.cash_total_cents === state.settlement.cash_total_cents ? 'refunded' : 'partially_refunded';
        return { ...state, status, refunded };
      }
    }
  },

  decide(command, state) {
    switch (command.kind) {
      case 'RecordTransaction':
        if (state.status !== 'none') {
          throw new DomainError('TRANSACTION_EXISTS', `Transaction ${command.transaction_id} already exists`, 409);
        }
        return [{ type: 'TransactionRecorded', data: recordSale(command) }];
      case 'ApplyOverride':
        return [
          {
            type: 'OverrideApplied',
            data: applyOverride(command, unrefunded(state, command.override.transaction_id, 'overridden')),
          },
        ];
      case 'VoidTransaction':
        return [
          {
            type: 'TransactionVoided',
            data: voidSale(command, unrefunded(state, command.void.original_transaction_id, 'voided')),
          },
        ];
      case 'IssueRefund':
        return [
          { type: 'RefundIssued', data: refundSale(command, notVoided(state, command.refund.original_transaction_id)) },
        ];
    }
  },
};

function notVoided(state: TransactionState, transactionId: string): SaleState {
  if (state.status === 'none') throw new TransactionNotFoundError(transactionId);
  if (state.status === 'voided') throw new AlreadyVoidedError(transactionId);
  return state;
}

function unrefunded(state: TransactionState, transactionId: string, operation: 'voided' | 'overridden'): SaleState {
  const sale = notVoided(state, transactionId);
  if (sale.status === 'partially_refunded' || sale.status === 'refunded')
    throw new AlreadyRefundedError(transactionId, operation);
  return sale;
}
