import type { Decider, DomainEvent } from '../platform/decider';
import type { TransactionStatus, TransactionType } from '../transactions/transaction.events';
import { checkTipCreditAt } from '../rules/tip-credit';
import {
  NotATippableSaleError,
  TipAmountUnchangedError,
  TipPooledError,
  TipRecordExistsError,
  TipRecordNotFoundError,
} from './tip.errors';
import type {
  TipCreditChecked,
  TipCreditCheckedData,
  TipEvent,
  TipPaidOut,
  TipPaidOutData,
  TipRecordedData,
} from './tip.events';

/** The sale a tip rides on, as the transactions read model has it. */
export interface TippedSale {
  type: TransactionType;
  state: TransactionStatus;
  ledger_total_cents: number;
}

/**
 * docs/design.md: tips attach to sales that stand. A voided or wholly refunded sale's money went back, and a
 * VOID or REFUND record earned nothing: no tip is recorded on them, nor raised or cut once the sale stopped
 * standing (issue 33: a tip on a sale voided afterwards was raised from $5 to $50). An overridden sale,
 * or one refunded in part, still stands.
 */
export function assertTippable(transactionId: string, sale: Pick<TippedSale, 'type' | 'state'>): void {
  if (sale.type !== 'SALE' || sale.state === 'voided' || sale.state === 'refunded')
    throw new NotATippableSaleError(transactionId, sale);
}

/** Ids, time, amounts in cents and the rules in force come in through the commands: `decide` reads nothing. */
export type RecordTip = { kind: 'RecordTip'; now: string; sale: TippedSale } & Omit<
  TipRecordedData,
  'recorded_at' | 'sale_total_cents'
>;

export interface AdjustTip {
  kind: 'AdjustTip';
  tip_id: string;
  adjustment_id: string;
  new_amount_cents: number;
  reason: string;
  /** The pool the tip sits in, if any, from the tips read model (pools live in streams of their own). */
  pool_id: string | null;
  /** The sale the tip rides on, as it stands now. */
  sale: Pick<TippedSale, 'type' | 'state'>;
  now: string;
}

export type TipCommand = RecordTip | AdjustTip;

/** `tip` holds the current amount; the amounts before it are in the stream. */
export type TipState = { status: 'none' } | { status: 'recorded'; tip: TipRecordedData };

export const tipDecider: Decider<TipCommand, TipState, TipEvent> = {
  initialState: () => ({ status: 'none' }),

  evolve(state, event) {
    switch (event.type) {
      case 'TipRecorded':
        return { status: 'recorded', tip: event.data };
      case 'TipAdjusted':
        return state.status === 'recorded'
          ? { status: 'recorded', tip: { ...state.tip, amount_cents: event.data.new_amount_cents } }
          : state;
      default:
        return state;
    }
  },

  decide(command, state) {
    switch (command.kind) {
      case 'RecordTip': {
        if (state.status !== 'none') throw new TipRecordExistsError(command.tip_id);
        assertTippable(command.transaction_id, command.sale);
        const { kind: _kind, now, sale, ...tip } = command;
        return [{ type: 'TipRecorded', data: { ...tip, sale_total_cents: sale.ledger_total_cents, recorded_at: now } }];
      }
      case 'AdjustTip': {
        if (state.status === 'none') throw new TipRecordNotFoundError('Tip', command.tip_id);
        const { tip } = state;
        if (command.pool_id !== null) throw new TipPooledError(tip.tip_id, command.pool_id);
        assertTippable(tip.transaction_id, command.sale);
        if (command.new_amount_cents === tip.amount_cents)
          throw new TipAmountUnchangedError(tip.tip_id, tip.amount_cents);
        return [
          {
            type: 'TipAdjusted',
            data: {
              tip_id: tip.tip_id,
              adjustment_id: command.adjustment_id,
              merchant_id: tip.merchant_id,
              employee_id: tip.employee_id,
              previous_amount_cents: tip.amount_cents,
              new_amount_cents: command.new_amount_cents,
              reason: command.reason,
              adjusted_at: command.now,
            },
          },
        ];
      }
    }
  },
};

/** A record whose stream holds its one creating event: a second one is an id clash. */
type Recorded<Data> = { status: 'none' } | { status: 'recorded'; record: Data };

function recordedOnce<Command, Event extends DomainEvent>(
  idOf: (command: Command) => string,
  record: (command: Command) => Event,
): Decider<Command, Recorded<Event['data']>, Event> {
  return {
    initialState: () => ({ status: 'none' }),
    evolve: (_state, event) => ({ status: 'recorded', record: event.data }),
    decide(command, state) {
      if (state.status !== 'none') throw new TipRecordExistsError(idOf(command));
      return [record(command)];
    },
  };
}

export type PayOutTips = { kind: 'PayOutTips'; now: string } & Omit<TipPaidOutData, 'paid_at'>;

export const tipPayoutDecider = recordedOnce<PayOutTips, TipPaidOut>(
  (command) => command.payout_id,
  ({ kind: _kind, now, ...payout }) => ({ type: 'TipPaidOut', data: { ...payout, paid_at: now } }),
);

/**
 * `state` is a state's code, or `US` for FLSA alone; `rules` are its entry, the FLSA one, where
 * `city` or `county` has its own rule in force that one, and the state's regions when no county was named.
 */
export type CheckTipCredit = { kind: 'CheckTipCredit'; now: string } & Pick<
  TipCreditCheckedData,
  | 'check_id'
  | 'merchant_id'
  | 'employee_id'
  | 'state'
  | 'city'
  | 'county'
  | 'zip_code'
  | 'hourly_wage_cents'
  | 'average_tips_per_hour_cents'
  | 'rules'
>;

/** The check is recorded, so that what an employer declared about a wage stays in the audit trail. */
export const tipCreditCheckDecider = recordedOnce<CheckTipCredit, TipCreditChecked>(
  (command) => command.check_id,
  ({ kind: _kind, now, rules, ...facts }) => ({
    type: 'TipCreditChecked',
    data: {
      ...facts,
      ...checkTipCreditAt(facts, rules),
      checked_at: now,
    },
  }),
);
