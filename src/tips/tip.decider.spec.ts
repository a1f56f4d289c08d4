import { given } from '../../test/support/decider';
import { loadSeeds } from '../jurisdiction/seed-loader';
import { tipCreditRuleOn } from '../rules/tip-credit';
import {
  tipCreditCheckDecider,
  tipDecider,
  tipPayoutDecider,
  type AdjustTip,
  type CheckTipCredit,
  type PayOutTips,
  type RecordTip,
} from './tip.decider';
import {
  NotATippableSaleError,
  TipAmountUnchangedError,
  TipPooledError,
  TipRecordExistsError,
  TipRecordNotFoundError,
} from './tip.errors';
import type { TipAdjusted, TipPaidOut, TipRecorded } from './tip.events';

const NOW = '2026-11-21T12:00:00.000Z';
const LATER = '2026-11-21T18:00:00.000Z';

const recorded = (fields: Partial<TipRecorded['data']> = {}): TipRecorded => ({
  type: 'TipRecorded',
  data: {
    tip_id: 'TIP-2026-11-21-AAAAAAAA',
    merchant_id: 'm-1',
    transaction_id: 'TXN-2026-11-21-BBBBBBBB',
    method: 'credit_card',
    employee_id: 'e-1',
    employee_name: 'Ana',
    amount_cents: 500,
    sale_total_cents: 1003,
    recorded_at: NOW,
    ...fields,
  },
});

/** The command that records `recorded(fields)`: the same fields, the time as `now`. */
const record = (fields: Partial<TipRecorded['data']> = {}): RecordTip => {
  const { recorded_at: recordedAt, sale_total_cents: saleTotalCents, ...data } = recorded(fields).data;
  return {
    kind: 'RecordTip',
    ...data,
    now: recordedAt,
    sale: { type: 'SALE', state: 'completed', ledger_total_cents: saleTotalCents! },
  };
};

const adjust = (fields: Partial<AdjustTip> = {}): AdjustTip => ({
  kind: 'AdjustTip',
  tip_id: 'TIP-2026-11-21-AAAAAAAA',
  adjustment_id: 'TIPADJ-2026-11-21-CCCCCCCC',
  new_amount_cents: 300,
  reason: 'customer corrected the slip',
  pool_id: null,
  sale: { type: 'SALE', state: 'completed' },
  now: LATER,
  ...fields,
});

const adjusted = (previous: number, next: number): TipAdjusted => ({
  type: 'TipAdjusted',
  data: {
    tip_id: 'TIP-2026-11-21-AAAAAAAA',
    adjustment_id: 'TIPADJ-2026-11-21-CCCCCCCC',
    merchant_id: 'm-1',
    employee_id: 'e-1',
    previous_amount_cents: previous,
    new_amount_cents: next,
    reason: 'customer corrected the slip',
    adjusted_at: LATER,
  },
});

describe('tip decider', () => {
  it('records a tip', () => {
    given(tipDecider).when(record()).then([recorded()]);
  });

  const STANDING = ['completed', 'overridden', 'partially_refunded'] as const;
  const FALLEN = [
    [{ type: 'VOID', state: 'completed' }, 'a VOID record'],
    [{ type: 'REFUND', state: 'completed' }, 'a REFUND record'],
    [{ type: 'SALE', state: 'voided' }, 'a voided sale'],
    [{ type: 'SALE', state: 'refunded' }, 'a refunded sale'],
  ] as const;

  it('records a tip on a sale that stands, overridden or refunded in part, and refuses a VOID or REFUND record and a voided or wholly refunded sale (409)', () => {
    for (const state of STANDING)
      given(tipDecider)
        .when({ ...record(), sale: { type: 'SALE', state, ledger_total_cents: 1003 } })
        .then([recorded()]);
    for (const [sale, what] of FALLEN) {
      given(tipDecider)
        .when({ ...record(), sale: { ...sale, ledger_total_cents: 1003 } })
        .thenThrows(NotATippableSaleError, {
          status: 409,
          code: 'NOT_A_COMPLETED_SALE',
          message: `Transaction TXN-2026-11-21-BBBBBBBB is ${what}: tips attach to completed sales only`,
        });
    }
  });

  it('adjusts a tip while its sale stands, and not once it was voided or wholly refunded (409)', () => {
    for (const state of STANDING)
      given(tipDecider, [recorded()])
        .when(adjust({ sale: { type: 'SALE', state } }))
        .then([adjusted(500, 300)]);
    for (const state of ['voided', 'refunded'] as const) {
      given(tipDecider, [recorded()])
        .when(adjust({ sale: { type: 'SALE', state }, new_amount_cents: 5000 }))
        .thenThrows(NotATippableSaleError, { status: 409, code: 'NOT_A_COMPLETED_SALE' });
    }
  });

  it('records a cash tip the same way', () => {
    given(tipDecider)
      .when(record({ method: 'cash' }))
      .then([recorded({ method: 'cash' })]);
  });

  it('refuses a second tip under the same id', () => {
    given(tipDecider, [recorded()]).when(record()).thenThrows(TipRecordExistsError, { status: 409 });
  });

  it('adjusts a tip, keeping the amount it replaces', () => {
    given(tipDecider, [recorded()])
      .when(adjust())
      .then([adjusted(500, 300)]);
  });

  it('adjusts from the latest amount, up as well as down', () => {
    given(tipDecider, [recorded(), adjusted(500, 300)])
      .when(adjust({ new_amount_cents: 450 }))
      .then([{ ...adjusted(300, 450) }]);
  });

  it('folds adjustments into the current amount', () => {
    expect(given(tipDecider, [recorded(), adjusted(500, 300)]).state).toEqual({
      status: 'recorded',
      tip: recorded({ amount_cents: 300 }).data,
    });
  });

  it('refuses to adjust a pooled tip', () => {
    given(tipDecider, [recorded()])
      .when(adjust({ pool_id: 'POOL-2026-11-21-DDDDDDDD' }))
      .thenThrows(TipPooledError, { status: 409, code: 'TIP_POOLED' });
  });

  it('refuses an adjustment that changes nothing', () => {
    given(tipDecider, [recorded()])
      .when(adjust({ new_amount_cents: 500 }))
      .thenThrows(TipAmountUnchangedError, { status: 409 });
  });

  it('answers an adjustment of an unknown tip with 404', () => {
    given(tipDecider).when(adjust()).thenThrows(TipRecordNotFoundError, { status: 404 });
  });
});

describe('tip payout decider', () => {
  const paidOut: TipPaidOut = {
    type: 'TipPaidOut',
    data: {
      payout_id: 'PAYOUT-2026-11-21-EEEEEEEE',
      merchant_id: 'm-1',
      employee_id: 'e-1',
      employee_name: 'Ana',
      amount_cents: 1250,
      payout_method: 'direct_deposit',
      paid_at: NOW,
    },
  };
  const { paid_at: paidAt, ...paid } = paidOut.data;
  const payout: PayOutTips = { kind: 'PayOutTips', ...paid, now: paidAt };

  it('records a payout', () => {
    given(tipPayoutDecider).when(payout).then([paidOut]);
  });

  it('refuses a second payout under the same id', () => {
    given(tipPayoutDecider, [paidOut]).when(payout).thenThrows(TipRecordExistsError);
  });
});

describe('tip credit check decider', () => {
  const { tipCreditRules } = loadSeeds();
  const check = (state: string, wage: number, tips: number): CheckTipCredit => ({
    kind: 'CheckTipCredit',
    check_id: 'TIPCHECK-2026-11-21-FFFFFFFF',
    merchant_id: 'm-1',
    employee_id: null,
    state,
    hourly_wage_cents: wage,
    average_tips_per_hour_cents: tips,
    rules: {
      federal: tipCreditRuleOn(tipCreditRules, 'US', NOW.slice(0, 10))!,
      state: tipCreditRuleOn(tipCreditRules, state, NOW.slice(0, 10))!,
    },
    now: NOW,
  });

  it('records the check with its outcome and the rules it applied', () => {
    const [event] = given(tipCreditCheckDecider)
      .when(check('TX', 213, 600))
      .then([expect.objectContaining({ type: 'TipCreditChecked' })]);
    expect(event.data).toMatchObject({
      check_id: 'TIPCHECK-2026-11-21-FFFFFFFF',
      merchant_id: 'm-1',
      state: 'TX',
      hourly_wage_cents: 213,
      average_tips_per_hour_cents: 600,
      compliant: true,
      rules: { federal: expect.objectContaining({ state: 'US' }), state: expect.objectContaining({ state: 'TX' }) },
      checked_at: NOW,
    });
    expect(event.data.requirements.map((r) => r.requirement)).toEqual([
      'FLSA_CASH_WAGE',
      'FLSA_MINIMUM_WAGE',
      'STATE_CASH_WAGE',
      'STATE_MINIMUM_WAGE',
    ]);
  });

  it('records a failing check too', () => {
    const [event] = given(tipCreditCheckDecider)
      .when(check('CA', 213, 2000))
      .then([expect.objectContaining({ type: 'TipCreditChecked' })]);
    expect(event.data.compliant).toBe(false);
  });
});
