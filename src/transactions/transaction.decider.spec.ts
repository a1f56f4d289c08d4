import fc from 'fast-check';
import { given } from '../../test/support/decider';
import { decideInTurn, recordCommand, SALE_AT } from '../../test/support/sale-commands';
import type { MerchantHistory } from '../rules/fraud-score';
import { roundTender } from '../rules/cash-settlement';
import { ROUNDING_MODES, roundCents } from '../rules/rounding-engine';
import { transactionDecider } from './transaction.decider';
import type { TransactionState } from './sale-state';
import type { ApplyOverride, IssueRefund, RecordTransaction, VoidPolicy, VoidTransaction } from './sale.commands';
import type { RecordTransactionRequest } from './record-transaction/record-transaction.request.dto';
import {
  AlreadyRefundedError,
  AlreadyVoidedError,
  OverridePolicyViolationError,
  RefundExceedsPaidError,
  RefundRoundsToZeroError,
  TransactionNotFoundError,
  VoidPolicyViolationError,
} from './transaction.errors';
import type {
  OverrideApplied,
  RefundIssued,
  RefundReason,
  TransactionEvent,
  TransactionRecorded,
  TransactionRecordedData,
  TransactionVoided,
  VoidReason,
} from './transaction.events';

const NOW = SALE_AT;
const record = recordCommand;

/** Phoenix, AZ: swedish rounding, mandatory. */
const PHOENIX = '85004';
/** Birmingham, AL: symmetrical rounding, permissive. */
const BIRMINGHAM = '35203';

function recorded(command: RecordTransaction): TransactionRecorded {
  const [event] = given(transactionDecider)
    .when(command)
    .then([expect.objectContaining({ type: 'TransactionRecorded' })]);
  return event as TransactionRecorded;
}

const decided = (command: RecordTransaction): TransactionRecordedData => recorded(command).data;

describe('transaction decider: RecordTransaction', () => {
  it('rounds a cash sale under the rule of the ZIP, and warns that the rule is unconfirmed', () => {
    const data = decided(record({ zip_code: PHOENIX, subtotal_cents: 1000, tax_total_cents: 3, cashier_id: 'c-7' }));
    const expected = roundTender({
      payment_method: 'cash',
      subtotal_cents: 1000,
      tax_total_cents: 3,
      terms: { mode: 'swedish_rounding', rounds: 'total', exact_change_exempt: false, small_total: null },
    });
    expect(data.calculation).toEqual({
      subtotal_cents: 1000,
      tax_total_cents: 3,
      ledger_total_cents: 1003,
      cash_portion_cents: 1003,
      cash_total_cents: expected.cash_total_cents,
      rounding_delta_cents: expected.rounding_delta_cents,
      cash_rounding_mode: 'swedish_rounding',
      mode_source: 'rule',
      rounding_applied: true,
      exemptions: [],
      cash_tendered_cents: null,
      change_due_cents: null,
      rule_version: 'US-AZ:retail@undated',
      rounding_exemption: null,
      rounding_policy: { requested: 'rule', applied: 'rule', reason: null },
    });
    expect(expected).toMatchObject({ cash_total_cents: 1005, rounding_delta_cents: 2 });
    expect(data.rule).toMatchObject({ jurisdiction_id: 'US-AZ', enforcement: 'mandatory' });
    expect(data.location.resolved).toMatchObject({ zip: PHOENIX, state: 'AZ', city: 'Phoenix' });
    // Arizona's enactment rests on a vendor's list (seeds: confidence low): the rounding follows it, the answer says so.
    expect(data.compliance).toEqual({
      compliance_status: 'WARN',
      reasons: [expect.objectContaining({ code: 'RULE_UNCONFIRMED', severity: 'WARN' })],
    });
    expect(data.fraud).toEqual({ fraud_score: 0, risk_level: 'NONE', signals: [] });
    expect(data).toMatchObject({
      transaction_id: 'TXN-2026-11-21-ABCDEFGH',
      created_at: NOW,
      cashier_id: 'c-7',
      store_id: null,
    });
  });

  it.each([
    ['card', 'Ala. Act 2026-548 (HB 545); Wash. SHB 2334'],
    ['mobile', 'Ala. Act 2026-548 (HB 545); Wash. SHB 2334'],
    ['ebt', '7 CFR 278.2'],
  ] as const)('never rounds a %s sale, and cites why', (paymentMethod, citation) => {
    const data = decided(record({ zip_code: PHOENIX, payment_method: paymentMethod }));
    expect(data.calculation).toMatchObject({
      ledger_total_cents: 1003,
      cash_portion_cents: 0,
      cash_total_cents: 1003,
      rounding_delta_cents: 0,
      rounding_applied: false,
      exemptions: [expect.objectContaining({ tender: paymentMethod, amount_cents: 1003, citation })],
    });
    expect(data.compliance.reasons.map((r) => r.code)).toEqual(['RULE_UNCONFIRMED']);
  });

  it('rounds only the cash portion of a split tender', () => {
    const tenders = [
      { type: 'cash', amount_cents: 503 },
      { type: 'ebt', amount_cents: 400 },
      { type: 'card', amount_cents: 100 },
    ] as const;
    const data = decided(record({ zip_code: BIRMINGHAM, tenders: [...tenders], is_split_tender: true }));
    expect(data.is_split_tender).toBe(true);
    expect(data.calculation).toMatchObject({
      ledger_total_cents: 1003,
      cash_portion_cents: 503,
      cash_total_cents: 505,
      rounding_delta_cents: 2,
      cash_rounding_mode: 'symmetrical_rounding',
      exemptions: [
        expect.objectContaining({ tender: 'ebt', amount_cents: 400 }),
        expect.objectContaining({ tender: 'card', amount_cents: 100 }),
      ],
    });
  });

  it('applies the federal default without any location, as a WARN', () => {
    const data = decided(record({}));
    expect(data.rule.jurisdiction_id).toBe('US');
    expect(data.calculation.cash_rounding_mode).toBe('symmetrical_rounding');
    expect(data.compliance).toEqual({
      compliance_status: 'WARN',
      reasons: [expect.objectContaining({ code: 'NO_LOCATION_FALLBACK', severity: 'WARN' })],
    });
    expect(data.fraud.signals.map((s) => s.code)).toEqual(['UNVERIFIED_JURISDICTION']);
  });

  it('applies the rule of the ZIP when the state contradicts it, as a WARN', () => {
    const data = decided(record({ zip_code: PHOENIX, state: 'AL' }));
    expect(data.rule.jurisdiction_id).toBe('US-AZ');
    expect(data.compliance.compliance_status).toBe('WARN');
    expect(data.compliance.reasons.map((r) => r.code)).toEqual(['STATE_ZIP_MISMATCH', 'RULE_UNCONFIRMED']);
    expect(data.fraud).toMatchObject({ fraud_score: 20, risk_level: 'LOW' });
  });

  describe('an explicit cash_rounding_mode', () => {
    it('against a mandatory rule fails under a production key', () => {
      const data = decided(
        record(
          { zip_code: PHOENIX, cash_rounding_mode: 'mandatory_round_up', tax_total_cents: 1 },
          { environment: 'production' },
        ),
      );
      expect(data.calculation).toMatchObject({
        cash_rounding_mode: 'mandatory_round_up',
        mode_source: 'explicit',
        cash_total_cents: 1005,
      });
      expect(data.compliance.compliance_status).toBe('FAIL');
      expect(data.compliance.reasons).toEqual([
        expect.objectContaining({ code: 'RULE_UNCONFIRMED', severity: 'WARN' }),
        expect.objectContaining({ code: 'EXPLICIT_MODE_CONTRADICTS_MANDATORY_RULE', severity: 'FAIL' }),
        expect.objectContaining({ code: 'FRAUD_RISK_HIGH', severity: 'WARN' }),
      ]);
      // 1001 would have been 1000 under the rule: the customer paid 5 cents more.
      expect(data.fraud.signals).toEqual([
        expect.objectContaining({ code: 'EXPLICIT_MODE_CONTRADICTS_MANDATORY_RULE', points: 35 }),
        expect.objectContaining({ code: 'EXPLICIT_MODE_FAVOURS_MERCHANT', points: 15 }),
      ]);
      expect(data.fraud).toMatchObject({ fraud_score: 50, risk_level: 'HIGH' });
    });

    it('against a mandatory rule is a WARN under a sandbox key', () => {
      const data = decided(record({ zip_code: PHOENIX, cash_rounding_mode: 'none' }, { environment: 'sandbox' }));
      expect(data.compliance.compliance_status).toBe('WARN');
      expect(data.compliance.reasons[1]).toMatchObject({
        code: 'EXPLICIT_MODE_CONTRADICTS_MANDATORY_RULE',
        severity: 'WARN',
      });
    });

    it('that rounds exactly as the mandatory rule does contradicts nothing, but is still a WARN', () => {
      const data = decided(
        record({ zip_code: PHOENIX, cash_rounding_mode: 'nearest_nickel' }, { environment: 'production' }),
      );
      expect(data.compliance).toEqual({
        compliance_status: 'WARN',
        reasons: [
          expect.objectContaining({ code: 'RULE_UNCONFIRMED', severity: 'WARN' }),
          expect.objectContaining({ code: 'EXPLICIT_ROUNDING_MODE', severity: 'WARN' }),
        ],
      });
      expect(data.fraud.fraud_score).toBe(0);
    });

    it('under a permissive rule is a WARN, not a FAIL', () => {
      const data = decided(record({ zip_code: BIRMINGHAM, cash_rounding_mode: 'none' }, { environment: 'production' }));
      expect(data.calculation).toMatchObject({
        cash_total_cents: 1003,
        rounding_delta_cents: 0,
        rounding_applied: false,
      });
      expect(data.compliance.compliance_status).toBe('WARN');
    });
  });

  describe('a rule that lets the retailer choose (either_neighbor), mandatory', () => {
    /** Phoenix's rule, as if its law let the retailer pick either neighbouring nickel. */
    const choosing = (command: RecordTransaction): RecordTransaction => ({
      ...command,
      jurisdiction: { ...command.jurisdiction, rule: { ...command.jurisdiction.rule, choice: 'either_neighbor' } },
    });

    it('passes compliance with both neighbours, under any mode that gives one, and fails every other result', () => {
      fc.assert(
        fc.property(fc.integer({ min: 0, max: 1_000_000 }), fc.constantFrom(...ROUNDING_MODES), (subtotal, mode) => {
          const data = decided(
            choosing(
              record(
                { zip_code: PHOENIX, subtotal_cents: subtotal, tax_total_cents: 0, cash_rounding_mode: mode },
                { environment: 'production' },
              ),
            ),
          );
          const { cash_total_cents: cashTotalCents } = data.calculation;
          const neighbour =
            cashTotalCents === subtotal - (subtotal % 5) || cashTotalCents === subtotal + ((5 - (subtotal % 5)) % 5);
          const codes = data.compliance.reasons.map((reason) => reason.code);
          expect(codes.includes('EXPLICIT_MODE_CONTRADICTS_MANDATORY_RULE')).toBe(!neighbour);
          expect(data.compliance.compliance_status === 'FAIL').toBe(!neighbour);
        }),
      );
    });
  });

  describe("a merchant's favor_customer policy", () => {
    it('rounds down under a permissive rule, and says the policy applied', () => {
      const data = decided(
        record(
          { zip_code: BIRMINGHAM, subtotal_cents: 1000, tax_total_cents: 4 },
          { roundingPolicy: 'favor_customer' },
        ),
      );
      expect(data.calculation).toMatchObject({
        cash_total_cents: 1000,
        rounding_delta_cents: -4,
        cash_rounding_mode: 'mandatory_round_down',
        mode_source: 'merchant_policy',
        rounding_policy: { requested: 'favor_customer', applied: 'favor_customer', reason: null },
      });
    });

    it('gives way to a mandatory rule that rounds to the nearest nickel, and says why', () => {
      const data = decided(
        record(
          { zip_code: PHOENIX, subtotal_cents: 1000, tax_total_cents: 4 },
          { roundingPolicy: 'favor_customer', environment: 'production' },
        ),
      );
      expect(data.calculation).toMatchObject({
        cash_total_cents: 1005,
        cash_rounding_mode: 'swedish_rounding',
        mode_source: 'rule',
      });
      expect(data.calculation.rounding_policy).toMatchObject({
        requested: 'favor_customer',
        applied: 'rule',
        reason: expect.stringContaining('does not let a merchant round down'),
      });
      expect(data.compliance.reasons.map((reason) => reason.code)).not.toContain(
        'EXPLICIT_MODE_CONTRADICTS_MANDATORY_RULE',
      );
    });
  });

  it('fails a sale whose fraud score is CRITICAL', () => {
    const history: MerchantHistory = { recent_symmetric_deltas: Array(49).fill(2), cashier_sales_in_window: 40 };
    const data = decided(record({ zip_code: PHOENIX, cashier_id: 'c-1', state: 'AL' }, { history }));
    expect(data.fraud.signals.map((s) => s.code)).toEqual(['ZIP_STATE_MISMATCH', 'ROUND_UP_BIAS', 'CASHIER_VELOCITY']);
    expect(data.fraud).toMatchObject({ fraud_score: 80, risk_level: 'CRITICAL' });
    expect(data.compliance.compliance_status).toBe('FAIL');
    expect(data.compliance.reasons.map((r) => [r.code, r.severity])).toEqual([
      ['STATE_ZIP_MISMATCH', 'WARN'],
      ['RULE_UNCONFIRMED', 'WARN'],
      ['FRAUD_RISK_CRITICAL', 'FAIL'],
    ]);
  });

  describe('rejects', () => {
    const validation = (field: string) =>
      expect.objectContaining({ code: 'VALIDATION_ERROR', status: 400, details: [expect.objectContaining({ field })] });

    it('tenders that do not add up to subtotal plus tax', () => {
      const tenders = [
        { type: 'cash', amount_cents: 500 },
        { type: 'card', amount_cents: 500 },
      ] as const;
      given(transactionDecider)
        .when(record({ tenders: [...tenders] }))
        .thenThrows(validation('tenders'));
    });

    it('a split tender with a single tender', () => {
      given(transactionDecider)
        .when(record({ is_split_tender: true, tenders: [{ type: 'cash', amount_cents: 1003 }] }))
        .thenThrows(validation('tenders'));
    });

    it('several tenders that say they are not a split', () => {
      const tenders = [
        { type: 'cash', amount_cents: 3 },
        { type: 'card', amount_cents: 1000 },
      ] as const;
      given(transactionDecider)
        .when(record({ is_split_tender: false, tenders: [...tenders] }))
        .thenThrows(validation('is_split_tender'));
    });

    it('a payment_method that is none of the tenders', () => {
      const tenders = [
        { type: 'cash', amount_cents: 3 },
        { type: 'ebt', amount_cents: 1000 },
      ] as const;
      given(transactionDecider)
        .when(record({ payment_method: 'card', tenders: [...tenders] }))
        .thenThrows(validation('payment_method'));
    });

    it('an id that is already recorded', () => {
      const command = record({ zip_code: PHOENIX });
      const [first] = given(transactionDecider).when(command).then([expect.anything()]);
      given(transactionDecider, [first as TransactionRecorded])
        .when(command)
        .thenThrows(expect.objectContaining({ code: 'TRANSACTION_EXISTS', status: 409 }));
    });
  });

  it('evolves to the completed sale, settled by its own calculation', () => {
    const event = recorded(record({ zip_code: PHOENIX }));
    expect(transactionDecider.evolve(transactionDecider.initialState(), event)).toEqual({
      status: 'completed',
      sale: event.data,
      settlement: { cash_total_cents: 1005, rounding_delta_cents: 2 },
      refunded: { ledger_total_cents: 0, cash_total_cents: 0 },
    });
  });
});

const SALE_ID = 'TXN-2026-11-21-ABCDEFGH';
const MINUTE = 60_000;
const POLICY: VoidPolicy = { time_limit_minutes: 24 * 60, amount_threshold_cents: 100_000, changed_mind_minutes: 30 };
const BOUNDS = { tolerance_cents: 4 };
const later = (minutes: number) => new Date(Date.parse(NOW) + minutes * MINUTE).toISOString();

/** A cash sale of $10.03 in Phoenix (swedish rounding): $10.05 in cash, delta +2. */
const phoenixSale = (sale: Partial<RecordTransactionRequest> = {}) => recorded(record({ zip_code: PHOENIX, ...sale }));

function override(newCashTotalCents: number, fields: Partial<ApplyOverride['override']> = {}): ApplyOverride {
  const request = {
    transaction_id: SALE_ID,
    employee_id: 'e-9',
    employee_name: '  Zoë O’Brien-Ng ',
    reason: 'manager-discretion' as const,
  };
  return {
    kind: 'ApplyOverride',
    override_id: 'OVR-2026-11-21-00000001',
    now: later(1),
    override: { ...request, new_cash_total_cents: newCashTotalCents, ...fields },
    bounds: BOUNDS,
  };
}

function voiding(
  fields: { reason?: VoidReason; by?: string; minutes?: number; policy?: Partial<VoidPolicy> } = {},
): VoidTransaction {
  return {
    kind: 'VoidTransaction',
    transaction_id: 'TXN-2026-11-21-V0000001',
    now: later(fields.minutes ?? 5),
    void: {
      original_transaction_id: SALE_ID,
      void_reason: fields.reason ?? 'pricing_error',
      voided_by: fields.by ?? 'e-2',
    },
    policy: { ...POLICY, ...fields.policy },
  };
}

let refundCount = 0;
function refund(refundAmount: number, voidReason: RefundReason = 'defective_product'): IssueRefund {
  const id = `TXN-2026-11-21-R${String(++refundCount).padStart(7, '0')}`;
  return {
    kind: 'IssueRefund',
    transaction_id: id,
    now: later(60),
    refund: {
      original_transaction_id: SALE_ID,
      refund_amount: refundAmount,
      void_reason: voidReason,
      voided_by: 'e-3',
    },
    bounds: BOUNDS,
  };
}

const run = (history: TransactionEvent[], ...commands: (ApplyOverride | VoidTransaction | IssueRefund)[]) =>
  decideInTurn(history, commands);

/** The Phoenix sale's calculation with every amount negated, the delta reversed. */
const mirrorOf = (sale: TransactionRecorded) => ({
  ...sale.data.calculation,
  subtotal_cents: -1000,
  tax_total_cents: -3,
  ledger_total_cents: -1003,
  cash_portion_cents: -1003,
  cash_total_cents: -1005,
  rounding_delta_cents: -2,
});

const calculationOf = (event: TransactionEvent) => (event as TransactionVoided | RefundIssued).data.calculation;

describe('transaction decider: ApplyOverride', () => {
  it('records the employee verbatim and the new cash total, linked to the sale', () => {
    const sale = phoenixSale();
    given(transactionDecider, [sale])
      .when(override(1000))
      .then([
        {
          type: 'OverrideApplied',
          data: {
            override_id: 'OVR-2026-11-21-00000001',
            transaction_id: SALE_ID,
            created_at: later(1),
            employee_id: 'e-9',
            employee_name: '  Zoë O’Brien-Ng ',
            reason: 'manager-discretion',
            calculated_cash_total_cents: 1005,
            previous_cash_total_cents: 1005,
            new_cash_total_cents: 1000,
            rounding_delta_cents: -3,
          },
        },
      ]);
  });

  it('settles the sale at the latest override, and keeps the calculated total', () => {
    const { events, state } = run([phoenixSale()], override(1000), override(1007));
    expect((events[1] as OverrideApplied).data).toMatchObject({
      calculated_cash_total_cents: 1005,
      previous_cash_total_cents: 1000,
      rounding_delta_cents: 4,
    });
    expect(state).toMatchObject({
      status: 'overridden',
      settlement: { cash_total_cents: 1007, rounding_delta_cents: 4 },
    });
  });

  it('bounds an override by the price: goodwill within 4 cents either way, a correction from 0 to 4 cents above (422)', () => {
    // The Phoenix sale's price is $10.03.
    for (const [reason, low, high] of [
      ['customer-request', 999, 1007],
      ['manager-discretion', 999, 1007],
      ['pricing-error', 0, 1007],
      ['system-error', 0, 1007],
    ] as const) {
      expect(run([phoenixSale()], override(low, { reason })).state).toMatchObject({
        settlement: { cash_total_cents: low },
      });
      expect(run([phoenixSale()], override(high, { reason })).state).toMatchObject({
        settlement: { cash_total_cents: high },
      });
      for (const outside of [low - 1, high + 1, 100_000_000_000].filter((cents) => cents >= 0)) {
        given(transactionDecider, [phoenixSale()])
          .when(override(outside, { reason }))
          .thenThrows(OverridePolicyViolationError, { status: 422, code: 'OVERRIDE_POLICY_VIOLATION' });
      }
    }
  });

  it('takes its tolerance from the command (the configuration)', () => {
    const wide: ApplyOverride = { ...override(1013), bounds: { tolerance_cents: 10 } };
    expect(run([phoenixSale()], wide).state).toMatchObject({ settlement: { cash_total_cents: 1013 } });
  });

  it('refuses an unknown sale, a voided one, and one with refunds', () => {
    given(transactionDecider).when(override(1000)).thenThrows(TransactionNotFoundError, { status: 404 });
    const voided = run([phoenixSale()], voiding()).events;
    given(transactionDecider, [phoenixSale(), ...voided])
      .when(override(1000))
      .thenThrows(AlreadyVoidedError, { status: 409, code: 'ALREADY_VOIDED' });
    const refunded = run([phoenixSale()], refund(100)).events;
    given(transactionDecider, [phoenixSale(), ...refunded])
      .when(override(1000))
      .thenThrows(AlreadyRefundedError, { status: 409 });
  });
});

describe('transaction decider: VoidTransaction', () => {
  it('mirrors the sale with negative amounts and the delta reversed, linked to it', () => {
    const sale = phoenixSale({ cashier_id: 'c-1', store_id: 's-1' });
    const [event] = given(transactionDecider, [sale])
      .when(voiding())
      .then([expect.objectContaining({ type: 'TransactionVoided' })]);
    const data = (event as TransactionVoided).data;
    expect(data).toMatchObject({
      transaction_id: 'TXN-2026-11-21-V0000001',
      transaction_type: 'VOID',
      original_transaction_id: SALE_ID,
      void_reason: 'pricing_error',
      voided_by: 'e-2',
      created_at: later(5),
      merchant_id: 'm-1',
      store_id: 's-1',
      cashier_id: 'c-1',
      rule: sale.data.rule,
      compliance: { compliance_status: 'PASS', reasons: [] },
      fraud: { fraud_score: 0, risk_level: 'NONE', signals: [] },
    });
    expect(data.calculation).toEqual(mirrorOf(sale));
    expect(transactionDecider.evolve(given(transactionDecider, [sale]).state, event).status).toBe('voided');
  });

  it('mirrors every tender of a split, and the settlement of an override', () => {
    const tenders = [
      { type: 'cash', amount_cents: 503 },
      { type: 'ebt', amount_cents: 500 },
    ] as const;
    const split = recorded(record({ zip_code: BIRMINGHAM, tenders: [...tenders] }));
    const { events } = run([split], override(507), voiding());
    expect((events[1] as TransactionVoided).data).toMatchObject({
      tenders: [
        { type: 'cash', amount_cents: -503 },
        { type: 'ebt', amount_cents: -500 },
      ],
      calculation: {
        ledger_total_cents: -1003,
        cash_portion_cents: -503,
        cash_total_cents: -507,
        rounding_delta_cents: -4,
        exemptions: [expect.objectContaining({ tender: 'ebt', amount_cents: -500 })],
      },
    });
  });

  it('voids a sale once: a second void is a 409', () => {
    const { events } = run([phoenixSale()], voiding());
    given(transactionDecider, [phoenixSale(), ...events])
      .when(voiding())
      .thenThrows(AlreadyVoidedError, { status: 409, code: 'ALREADY_VOIDED' });
  });

  it('refuses a sale with refunds (409): the rest is refunded instead', () => {
    const { events } = run([phoenixSale()], refund(500));
    given(transactionDecider, [phoenixSale(), ...events])
      .when(voiding())
      .thenThrows(AlreadyRefundedError, { code: 'ALREADY_REFUNDED' });
  });

  const violations = (command: VoidTransaction, sale = phoenixSale()) => {
    let thrown: unknown;
    try {
      transactionDecider.decide(command, given(transactionDecider, [sale]).state);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(VoidPolicyViolationError);
    expect(thrown).toMatchObject({ status: 422, code: 'VOID_POLICY_VIOLATION' });
    return (thrown as VoidPolicyViolationError).violations.map((violation) => violation.policy);
  };

  it('allows a void up to the time limit, and refuses it after (time_limit)', () => {
    given(transactionDecider, [phoenixSale()])
      .when(voiding({ minutes: 24 * 60 }))
      .then([expect.anything()]);
    expect(violations(voiding({ minutes: 24 * 60 + 1 }))).toEqual(['time_limit']);
    expect(violations(voiding({ minutes: 61, policy: { time_limit_minutes: 60 } }))).toEqual(['time_limit']);
  });

  it('refuses a cash total above the threshold (amount_threshold)', () => {
    const large = phoenixSale({ subtotal_cents: 100_000, tax_total_cents: 5 });
    given(transactionDecider, [phoenixSale({ subtotal_cents: 100_000, tax_total_cents: 0 })])
      .when(voiding())
      .then([expect.anything()]);
    expect(violations(voiding(), large)).toEqual(['amount_threshold']);
    expect(violations(voiding({ policy: { amount_threshold_cents: 1000 } }))).toEqual(['amount_threshold']);
  });

  it('takes customer_changed_mind within its window only (reason)', () => {
    given(transactionDecider, [phoenixSale()])
      .when(voiding({ reason: 'customer_changed_mind', minutes: 30 }))
      .then([expect.anything()]);
    expect(violations(voiding({ reason: 'customer_changed_mind', minutes: 31 }))).toEqual(['reason']);
    given(transactionDecider, [phoenixSale()])
      .when(voiding({ reason: 'pricing_error', minutes: 31 }))
      .then([expect.anything()]);
  });

  it("refuses an employee_error void by the sale's own cashier (reason)", () => {
    const sale = phoenixSale({ cashier_id: 'c-1' });
    expect(violations(voiding({ reason: 'employee_error', by: 'c-1' }), sale)).toEqual(['reason']);
    given(transactionDecider, [sale])
      .when(voiding({ reason: 'employee_error', by: 'manager-1' }))
      .then([expect.anything()]);
  });

  it('names every policy a void breaks', () => {
    const large = phoenixSale({ subtotal_cents: 200_000 });
    expect(violations(voiding({ reason: 'customer_changed_mind', minutes: 25 * 60 }), large)).toEqual([
      'time_limit',
      'amount_threshold',
      'reason',
    ]);
  });
});

describe('transaction decider: IssueRefund', () => {
  it('mirrors the sale exactly for a full refund of its cash total, and passes the normalization check', () => {
    const sale = phoenixSale();
    const { events, state } = run([sale], refund(1005));
    const data = (events[0] as RefundIssued).data;
    expect(data).toMatchObject({
      transaction_type: 'REFUND',
      original_transaction_id: SALE_ID,
      void_reason: 'defective_product',
      voided_by: 'e-3',
      refund_amount_cents: 1005,
      payment_method: 'cash',
      normalization: { passed: true, original_rounding_delta_cents: 2, refund_rounding_delta_cents: -2 },
      compliance: { compliance_status: 'PASS', reasons: [] },
    });
    expect(data.calculation).toEqual(mirrorOf(sale));
    expect(state.status).toBe('refunded');
  });

  it('refunds in parts: ledger -amount, cash -round(amount), and the last part mirrors what is left', () => {
    const { events, state } = run([phoenixSale()], refund(503), refund(500));
    expect(
      events
        .map(calculationOf)
        .map(
          ({
            subtotal_cents: subtotalCents,
            tax_total_cents: taxTotalCents,
            ledger_total_cents: ledgerTotalCents,
            cash_total_cents: cashTotalCents,
            rounding_delta_cents: roundingDeltaCents,
          }) => [subtotalCents, taxTotalCents, ledgerTotalCents, cashTotalCents, roundingDeltaCents],
        ),
    ).toEqual([
      [-502, -1, -503, -505, -2],
      [-498, -2, -500, -500, 0],
    ]);
    expect(state).toMatchObject({ status: 'refunded', refunded: { ledger_total_cents: 1003, cash_total_cents: 1005 } });
    expect(run([phoenixSale()], refund(503)).state.status).toBe('partially_refunded');
  });

  it('flags, and does not block, a refund whose rounding moves the same way as the sale', () => {
    const [event] = given(transactionDecider, [phoenixSale()])
      .when(refund(501))
      .then([expect.objectContaining({ type: 'RefundIssued' })]);
    expect((event as RefundIssued).data).toMatchObject({
      calculation: { ledger_total_cents: -501, cash_total_cents: -500, rounding_delta_cents: 1 },
      normalization: { passed: false, original_rounding_delta_cents: 2, refund_rounding_delta_cents: 1 },
      compliance: {
        compliance_status: 'WARN',
        reasons: [expect.objectContaining({ code: 'REFUND_NORMALIZATION_FAILED', severity: 'WARN' })],
      },
    });
  });

  it('refuses refunds beyond what was paid (409)', () => {
    given(transactionDecider, [phoenixSale()])
      .when(refund(1006))
      .thenThrows(RefundExceedsPaidError, { status: 409, code: 'REFUND_EXCEEDS_PAID' });
    const { events } = run([phoenixSale()], refund(503));
    given(transactionDecider, [phoenixSale(), ...events])
      .when(refund(501))
      .thenThrows(RefundExceedsPaidError);
    const all = run([phoenixSale()], refund(1005)).events;
    given(transactionDecider, [phoenixSale(), ...all])
      .when(refund(1))
      .thenThrows(RefundExceedsPaidError);
  });

  it('refuses a refund whose cash rounds to nothing (422), naming the least amount that hands back cash', () => {
    // $10.03 in Phoenix is $10.05 in cash: 1 and 2 cents round to $0.00 under swedish rounding, 3 to a nickel.
    for (const cents of [1, 2]) {
      given(transactionDecider, [phoenixSale()])
        .when(refund(cents))
        .thenThrows(RefundRoundsToZeroError, {
          status: 422,
          code: 'REFUND_ROUNDS_TO_ZERO',
          message: `A cash refund of ${cents} cents rounds to $0.00 under swedish_rounding: refund at least 3 cents, or the 1005 cents still refundable at once`,
        });
    }
    expect(calculationOf(run([phoenixSale()], refund(3)).events[0])).toMatchObject({
      ledger_total_cents: -3,
      cash_total_cents: -5,
    });
    // A sale whose cash was not rounded refunds a cent as a cent.
    expect(calculationOf(run([phoenixSale({ payment_method: 'card' })], refund(1)).events[0])).toMatchObject({
      ledger_total_cents: -1,
      cash_total_cents: -1,
    });
  });

  it('caps a partial refund by the price not yet refunded; the rest of the cash is refunded at once (409)', () => {
    // 32 cents in Phoenix are 30 in cash; each 7-cent refund takes 7 off the price and hands back 5.
    const small = phoenixSale({ subtotal_cents: 30, tax_total_cents: 2 });
    const { events, state } = run([small], refund(7), refund(7), refund(7), refund(7));
    expect(state).toMatchObject({
      status: 'partially_refunded',
      refunded: { ledger_total_cents: 28, cash_total_cents: 20 },
    });
    given(transactionDecider, [small, ...events])
      .when(refund(7))
      .thenThrows(RefundExceedsPaidError, {
        status: 409,
        code: 'REFUND_EXCEEDS_PAID',
        message: `A partial refund of 7 cents exceeds the 4 cents of the price not yet refunded on transaction ${SALE_ID}; refund the 10 cents still refundable at once`,
      });
    const rest = run([small, ...events], refund(10));
    expect(calculationOf(rest.events[0])).toMatchObject({ ledger_total_cents: -4, cash_total_cents: -10 });
    expect(rest.state).toMatchObject({
      status: 'refunded',
      refunded: { ledger_total_cents: 32, cash_total_cents: 30 },
    });
  });

  it('refuses a voided sale (409) and an unknown one (404)', () => {
    const { events } = run([phoenixSale()], voiding());
    given(transactionDecider, [phoenixSale(), ...events])
      .when(refund(100))
      .thenThrows(AlreadyVoidedError);
    given(transactionDecider).when(refund(100)).thenThrows(TransactionNotFoundError);
  });

  it('refunds a card sale unrounded, on the card', () => {
    const [event] = given(transactionDecider, [phoenixSale({ payment_method: 'card' })])
      .when(refund(1003))
      .then([expect.anything()]);
    expect((event as RefundIssued).data).toMatchObject({
      payment_method: 'card',
      calculation: {
        ledger_total_cents: -1003,
        cash_portion_cents: 0,
        cash_total_cents: -1003,
        rounding_delta_cents: 0,
        rounding_applied: false,
        exemptions: [expect.objectContaining({ tender: 'card', amount_cents: -1003 })],
      },
      normalization: { passed: true },
    });
  });

  it('refunds the cash part of a split tender only, and up to an override', () => {
    const tenders = [
      { type: 'cash', amount_cents: 503 },
      { type: 'card', amount_cents: 500 },
    ] as const;
    const split = recorded(record({ zip_code: BIRMINGHAM, tenders: [...tenders] }));
    given(transactionDecider, [split]).when(refund(506)).thenThrows(RefundExceedsPaidError);
    // The split's cash part is $5.03: an override may settle it at most 4 cents above.
    given(transactionDecider, [split]).when(override(508)).thenThrows(OverridePolicyViolationError);
    const { events } = run([split], override(507), refund(507));
    expect(calculationOf(events[1])).toMatchObject({
      ledger_total_cents: -503,
      cash_total_cents: -507,
      rounding_delta_cents: -4,
    });
  });

  it('never refunds past the price plus the tolerance, even after an unbounded override recorded before the bound', () => {
    // An override of $1,000,000,000.00 on the $10.03 sale, as the service recorded them before overrides were bounded.
    const unbounded = run([phoenixSale()], {
      ...override(100_000_000_000),
      bounds: { tolerance_cents: Number.MAX_SAFE_INTEGER },
    }).events;
    given(transactionDecider, [phoenixSale(), ...unbounded])
      .when(refund(99_999_999_999))
      .thenThrows(RefundExceedsPaidError, { status: 409, code: 'REFUND_EXCEEDS_PAID' });
    const { events } = run([phoenixSale(), ...unbounded], refund(1007));
    expect(calculationOf(events[0])).toMatchObject({ ledger_total_cents: -1003, cash_total_cents: -1007 });
  });
});

describe('transaction decider: money properties', () => {
  const MODES = [
    'swedish_rounding',
    'mandatory_round_down',
    'mandatory_round_up',
    'symmetrical_rounding',
    'nearest_nickel',
    'none',
  ] as const;
  const cashSale = fc.record({
    subtotal_cents: fc.integer({ min: 0, max: 5_000_000 }),
    tax_total_cents: fc.integer({ min: 0, max: 500_000 }),
    cash_rounding_mode: fc.constantFrom(...MODES),
    payment_method: fc.constantFrom('cash', 'cash', 'card', 'ebt'),
  });

  it('never refunds more than was paid, hands back cash with every refund, and refunds that settle all add up to the sale exactly', () => {
    // 'rest': the amount still refundable, so that many runs end fully refunded.
    const refundAsked = fc.oneof(
      fc.integer({ min: 1, max: 6_000_000 }),
      fc.integer({ min: 1, max: 2000 }),
      fc.integer({ min: 1, max: 9 }),
      fc.constant('rest' as const),
    );
    let settled = 0;
    fc.assert(
      fc.property(cashSale, fc.array(refundAsked, { maxLength: 12 }), (fields, askedAmounts) => {
        const sale = recorded(record(fields));
        const { calculation } = sale.data;
        let state = given(transactionDecider, [sale]).state;
        const refunds: RefundIssued[] = [];
        const total = (field: 'subtotal_cents' | 'tax_total_cents' | 'ledger_total_cents' | 'cash_total_cents') =>
          refunds.reduce((sum, r) => sum - r.data.calculation[field], 0);
        for (const asked of askedAmounts) {
          const refundable = calculation.cash_total_cents - total('cash_total_cents');
          const amount = asked === 'rest' ? Math.max(refundable, 1) : asked;
          let event: RefundIssued;
          try {
            [event] = transactionDecider.decide(refund(amount), state) as RefundIssued[];
          } catch (error) {
            // Every refusal is one of the two, for its reason: past the cash, past the price left, or no cash at all.
            if (error instanceof RefundRoundsToZeroError) {
              expect(calculation.rounding_applied && roundCents(amount, calculation.cash_rounding_mode)).toBe(0);
            } else {
              expect(error).toBeInstanceOf(RefundExceedsPaidError);
              expect(amount > refundable || amount > calculation.ledger_total_cents - total('ledger_total_cents')).toBe(
                true,
              );
            }
            continue;
          }
          const {
            subtotal_cents: subtotalCents,
            tax_total_cents: taxTotalCents,
            ledger_total_cents: ledgerTotalCents,
            cash_total_cents: cashTotalCents,
          } = event.data.calculation;
          for (const cents of [subtotalCents, taxTotalCents, ledgerTotalCents]) expect(cents).toBeLessThanOrEqual(0);
          expect(cashTotalCents).toBeLessThan(0);
          refunds.push(event);
          state = transactionDecider.evolve(state, event);
        }
        expect(total('cash_total_cents')).toBeLessThanOrEqual(calculation.cash_total_cents);
        expect(total('ledger_total_cents')).toBeLessThanOrEqual(calculation.ledger_total_cents);
        expect(total('tax_total_cents')).toBeLessThanOrEqual(calculation.tax_total_cents);
        if (state.status === 'refunded') {
          settled++;
          expect([
            total('subtotal_cents'),
            total('tax_total_cents'),
            total('ledger_total_cents'),
            total('cash_total_cents'),
          ]).toEqual([
            calculation.subtotal_cents,
            calculation.tax_total_cents,
            calculation.ledger_total_cents,
            calculation.cash_total_cents,
          ]);
        }
      }),
    );
    expect(settled).toBeGreaterThan(0);
  });

  it('passes the normalization check on every full refund', () => {
    fc.assert(
      fc.property(cashSale, (fields) => {
        const sale = recorded(record(fields));
        fc.pre(sale.data.calculation.cash_total_cents > 0);
        const [event] = transactionDecider.decide(
          refund(sale.data.calculation.cash_total_cents),
          given(transactionDecider, [sale]).state,
        ) as RefundIssued[];
        expect(event.data.normalization.passed).toBe(true);
        expect(event.data.calculation.rounding_delta_cents).toBe(0 - sale.data.calculation.rounding_delta_cents);
      }),
    );
  });

  it('voids by negating every amount of the settlement exactly', () => {
    fc.assert(
      fc.property(cashSale, fc.option(fc.integer({ min: -4, max: 4 })), (fields, offset) => {
        const sale = recorded(record(fields));
        const price = fields.subtotal_cents + fields.tax_total_cents;
        const voided = voiding({ policy: { amount_threshold_cents: 10_000_000 } });
        const commands = offset === null ? [voided] : [override(Math.max(0, price + offset)), voided];
        const { events, state } = run([sale], ...commands);
        const before = run([sale], ...commands.slice(0, -1)).state as Extract<
          TransactionState,
          { settlement: unknown }
        >;
        const mirror = calculationOf(events[events.length - 1]);
        const { calculation } = sale.data;
        expect(mirror.subtotal_cents + calculation.subtotal_cents).toBe(0);
        expect(mirror.tax_total_cents + calculation.tax_total_cents).toBe(0);
        expect(mirror.ledger_total_cents + calculation.ledger_total_cents).toBe(0);
        expect(mirror.cash_total_cents + before.settlement.cash_total_cents).toBe(0);
        expect(mirror.rounding_delta_cents + before.settlement.rounding_delta_cents).toBe(0);
        expect(mirror.cash_total_cents - mirror.ledger_total_cents).toBe(mirror.rounding_delta_cents);
        expect(state.status).toBe('voided');
      }),
    );
  });
});
