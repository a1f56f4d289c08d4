import type { Decider, DomainEvent } from '../../src/platform/decider';
import type { NewEvent } from '../../src/platform/event-store/event-store.port';
import { loadSeeds } from '../../src/jurisdiction/seed-loader';
import type { SeedData } from '../../src/rules/seed-data';
import { tipCreditCheckDecider, tipDecider, tipPayoutDecider, type RecordTip } from '../../src/tips/tip.decider';
import { tipCreditRuleOn } from '../../src/rules/tip-credit';
import { tipPoolDecider } from '../../src/tips/tip-pool.decider';
import { tipCreditCheckStream, tipPayoutStream, tipPoolStream, tipStream } from '../../src/tips/tip.events';
import { call, type Answer } from './auth';
import type { TestApp } from './test-app';

/** POSTs a tip operation and returns the answer's body; anything but a 201 fails the test. */
export async function tipCreated(
  app: TestApp,
  key: string,
  path: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  const answer: Answer = await call(app, 'POST', path, { key, body, headers });
  if (answer.status !== 201)
    throw new Error(`POST ${path}: expected 201, got ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** A tip of `dollars` for the employee on the sale; returns the answer's `tip`. */
export async function recordTip(
  app: TestApp,
  key: string,
  transactionId: string,
  fields: { method?: 'cash' | 'credit-card'; employee_id?: string; employee_name?: string; tip_amount?: number } = {},
) {
  const {
    method = 'credit-card',
    employee_id: employeeId = 'e-1',
    employee_name: employeeName = 'Ana',
    tip_amount: tipAmount = 5,
  } = fields;
  return (
    await tipCreated(app, key, `/tip/${method}`, {
      transaction_id: transactionId,
      employee_id: employeeId,
      employee_name: employeeName,
      tip_amount: tipAmount,
    })
  ).tip;
}

let tipCreditRules: SeedData['tipCreditRules'] | undefined;

/**
 * A small history of every tip event, made by the deciders as the handlers would: a tip recorded
 * and cut, two pooled and distributed to three people, a payout and a tip-credit check. For
 * projector and rebuild tests; `merchantId` keeps the records of two calls apart.
 */
export function tipHistory(
  merchantId = 'm-tips',
  at = '2026-11-21T12:00:00.000Z',
): { streamId: string; events: NewEvent[] }[] {
  const metadata = { schemaVersion: 1, actor: { keyId: `key-${merchantId}`, role: 'merchant' }, merchantId };
  const id = (prefix: string, n: number) => `${prefix}-${merchantId}-${n}`;
  const history: { streamId: string; events: NewEvent[] }[] = [];
  const run = <C, S, E extends DomainEvent>(streamId: string, decider: Decider<C, S, E>, ...commands: C[]) => {
    let state = decider.initialState();
    for (const command of commands) {
      const events = decider.decide(command, state);
      state = events.reduce(decider.evolve, state);
      history.push({ streamId, events: events.map(({ type, data }) => ({ type, data: { ...data }, metadata })) });
    }
  };
  const tip = (n: number, employeeId: string, amountCents: number): RecordTip => ({
    kind: 'RecordTip',
    tip_id: id('TIP', n),
    merchant_id: merchantId,
    transaction_id: 'TXN-2026-11-21-00000001',
    sale: { type: 'SALE', state: 'completed', ledger_total_cents: 1003 },
    method: n === 1 ? 'cash' : 'credit_card',
    employee_id: employeeId,
    employee_name: employeeId.toUpperCase(),
    amount_cents: amountCents,
    now: at,
  });
  run(tipStream(id('TIP', 1)), tipDecider, tip(1, 'e-1', 1000), {
    kind: 'AdjustTip',
    tip_id: id('TIP', 1),
    adjustment_id: id('TIPADJ', 1),
    new_amount_cents: 700,
    reason: 'corrected',
    pool_id: null,
    sale: { type: 'SALE', state: 'completed' },
    now: at,
  });
  const pooled = [tip(2, 'e-2', 500), tip(3, 'e-3', 301)];
  for (const command of pooled) run(tipStream(command.tip_id), tipDecider, command);
  const participants = ['e-2', 'e-3', 'e-4'].map((employeeId) => ({
    employeeId,
    employeeName: employeeId.toUpperCase(),
  }));
  const tips = pooled.map(
    ({ tip_id: tipId, employee_id: employeeId, employee_name: employeeName, amount_cents: amountCents }) => ({
      tip_id: tipId,
      employee_id: employeeId,
      employee_name: employeeName,
      amount_cents: amountCents,
      pool_id: null,
    }),
  );
  run(
    tipPoolStream(id('POOL', 1)),
    tipPoolDecider,
    {
      kind: 'CreateTipPool',
      pool_id: id('POOL', 1),
      merchant_id: merchantId,
      pool_name: 'Pool',
      distribution_method: 'equal',
      participants,
      tips,
      now: at,
    },
    { kind: 'DistributeTipPool', pool_id: id('POOL', 1), now: at },
  );
  run(tipPayoutStream(id('PAYOUT', 1)), tipPayoutDecider, {
    kind: 'PayOutTips',
    payout_id: id('PAYOUT', 1),
    merchant_id: merchantId,
    employee_id: 'e-1',
    employee_name: 'E-1',
    amount_cents: 600,
    payout_method: 'cash',
    now: at,
  });
  tipCreditRules ??= loadSeeds().tipCreditRules;
  run(tipCreditCheckStream(id('TIPCHECK', 1)), tipCreditCheckDecider, {
    kind: 'CheckTipCredit',
    check_id: id('TIPCHECK', 1),
    merchant_id: merchantId,
    employee_id: 'e-5',
    state: 'TX',
    hourly_wage_cents: 213,
    average_tips_per_hour_cents: 300,
    rules: {
      federal: tipCreditRuleOn(tipCreditRules, 'US', at.slice(0, 10))!,
      state: tipCreditRuleOn(tipCreditRules, 'TX', at.slice(0, 10))!,
    },
    now: at,
  });
  return history;
}
