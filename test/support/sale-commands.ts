import type { NewEvent } from '../../src/platform/event-store/event-store.port';
import type { MerchantHistory } from '../../src/rules/fraud-score';
import type { LocationQuery } from '../../src/rules/jurisdiction-resolver';
import type { RoundingPolicy } from '../../src/rules/rounding-policy';
import { seededRuleStore } from './jurisdiction-rules';
import { transactionDecider } from '../../src/transactions/transaction.decider';
import type { TransactionState } from '../../src/transactions/sale-state';
import type { RecordTransaction, TransactionCommand } from '../../src/transactions/sale.commands';
import type { ApplyOverrideRequest } from '../../src/transactions/apply-override/apply-override.request.dto';
import type { RecordTransactionRequest } from '../../src/transactions/record-transaction/record-transaction.request.dto';
import type { VoidTransactionRequest } from '../../src/transactions/void-transaction/void-transaction.request.dto';
import type { KeyEnvironment, TransactionEvent } from '../../src/transactions/transaction.events';

const resolver = seededRuleStore();
/** The instant of every sale these commands record. */
export const SALE_AT = '2026-11-21T12:00:00.000Z';
const QUIET: MerchantHistory = { recent_symmetric_deltas: [], cashier_sales_in_window: null };

/** The command for a sale of $10.03 in cash by merchant m-1 (`sale` overrides any field), as the handler would build it. */
export function recordCommand(
  sale: Partial<RecordTransactionRequest>,
  options: {
    environment?: KeyEnvironment;
    history?: MerchantHistory;
    transactionId?: string;
    roundingPolicy?: RoundingPolicy;
  } = {},
): RecordTransaction {
  const full: RecordTransactionRequest = {
    merchant_id: 'm-1',
    subtotal_cents: 1000,
    tax_total_cents: 3,
    payment_method: 'cash',
    ...sale,
  };
  const location: LocationQuery = {
    zip_code: full.zip_code,
    state: full.state,
    county: full.county,
    city: full.city,
    date: SALE_AT.slice(0, 10),
  };
  const jurisdiction = resolver.resolve(location);
  return {
    kind: 'RecordTransaction',
    transaction_id: options.transactionId ?? 'TXN-2026-11-21-ABCDEFGH',
    now: SALE_AT,
    environment: options.environment ?? 'sandbox',
    sale: full,
    jurisdiction,
    history: options.history ?? QUIET,
    history_position: 0,
    rounding_policy: options.roundingPolicy ?? 'rule',
    rule_entry: resolver.entryOf(jurisdiction.rule),
    policy_entry: null,
  };
}

/** Decides each command on the state the history and the previous commands left, as the stream would. */
export function decideInTurn(
  history: TransactionEvent[],
  commands: TransactionCommand[],
): { events: TransactionEvent[]; state: TransactionState } {
  let state = history.reduce(transactionDecider.evolve, transactionDecider.initialState());
  const events: TransactionEvent[] = [];
  for (const command of commands) {
    const decided = transactionDecider.decide(command, state);
    events.push(...decided);
    state = decided.reduce(transactionDecider.evolve, state);
  }
  return { events, state };
}

/** Ten minutes after the sales: when the sale changes of these streams are made. */
const CHANGED_AT = new Date(Date.parse(SALE_AT) + 10 * 60_000).toISOString();

/**
 * A sale's stream as the handlers would append it: the sale in Phoenix (`sale` overrides any field),
 * then the events of what `then` does to it.
 */
export function saleStream(
  merchantId: string,
  saleId: string,
  sale: Partial<RecordTransactionRequest> = {},
  then: (saleId: string) => TransactionCommand[] = () => [],
): { streamId: string; events: NewEvent[] } {
  const metadata = { schemaVersion: 1, actor: { keyId: `key-${merchantId}`, role: 'merchant' }, merchantId };
  const { events } = decideInTurn(
    [],
    [
      recordCommand({ merchant_id: merchantId, zip_code: '85004', ...sale }, { transactionId: saleId }),
      ...then(saleId),
    ],
  );
  return {
    streamId: `transaction-${saleId}`,
    events: events.map(({ type, data }) => ({ type, data: { ...data }, metadata })),
  };
}

/** The default OVERRIDE_TOLERANCE_CENTS. */
const BOUNDS = { tolerance_cents: 4 };

/** A refund of `refund_amount` cents, made CHANGED_AT. */
export const refundCommand = (saleId: string, transactionId: string, refundAmount: number): TransactionCommand => ({
  kind: 'IssueRefund',
  transaction_id: transactionId,
  now: CHANGED_AT,
  refund: { original_transaction_id: saleId, refund_amount: refundAmount, void_reason: 'wrong_item', voided_by: 'e-2' },
  bounds: BOUNDS,
});

/** An override to `new_cash_total_cents` by Ann (e-1) for a pricing error, made CHANGED_AT; `fields` override any part. */
export const overrideCommand = (
  saleId: string,
  overrideId: string,
  newCashTotalCents: number,
  fields: Partial<ApplyOverrideRequest> & { now?: string } = {},
): TransactionCommand => {
  const { now = CHANGED_AT, ...override } = fields;
  return {
    kind: 'ApplyOverride',
    override_id: overrideId,
    now,
    override: {
      transaction_id: saleId,
      employee_id: 'e-1',
      employee_name: 'Ann',
      reason: 'pricing-error',
      new_cash_total_cents: newCashTotalCents,
      ...override,
    },
    bounds: BOUNDS,
  };
};

/** A void by e-2 for a pricing error, made CHANGED_AT under the default policies; `fields` override any part. */
export const voidCommand = (
  saleId: string,
  voidId: string,
  fields: Partial<Pick<VoidTransactionRequest, 'void_reason' | 'voided_by'>> & { now?: string } = {},
): TransactionCommand => {
  const { now = CHANGED_AT, ...request } = fields;
  return {
    kind: 'VoidTransaction',
    transaction_id: voidId,
    now,
    void: { original_transaction_id: saleId, void_reason: 'pricing_error', voided_by: 'e-2', ...request },
    policy: { time_limit_minutes: 24 * 60, amount_threshold_cents: 100_000, changed_mind_minutes: 30 },
  };
};

/**
 * A small history of every transaction event, made by the decider as the handlers would: a sale
 * left alone, one overridden, one voided and one refunded in two parts. For projector and rebuild tests.
 */
export function transactionHistory(merchantId = 'm-sales'): { streamId: string; events: NewEvent[] }[] {
  const stream = (n: number, then: (saleId: string) => TransactionCommand[]) =>
    saleStream(merchantId, `TXN-2026-11-21-HIST000${n}`, {}, then);
  return [
    stream(1, () => []),
    stream(2, (saleId) => [overrideCommand(saleId, 'OVR-2026-11-21-HIST0002', 1000)]),
    stream(3, (saleId) => [voidCommand(saleId, 'TXN-2026-11-21-HISTVOID')]),
    stream(4, (saleId) => [
      refundCommand(saleId, 'TXN-2026-11-21-HISTREF1', 503),
      refundCommand(saleId, 'TXN-2026-11-21-HISTREF2', 500),
    ]),
  ];
}
