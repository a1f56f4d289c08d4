import { given } from '../../test/support/decider';
import type { MerchantHistory } from '../fraud/fraud-score';
import { JurisdictionResolver, type LocationQuery } from '../jurisdiction/jurisdiction-resolver';
import { loadSeeds } from '../jurisdiction/seed-loader';
import { roundTender } from '../rounding/rounding-engine';
import { transactionDecider, type RecordTransaction, type SaleRequest } from './transaction.decider';
import type { KeyEnvironment, TransactionRecorded } from './transaction.events';

const resolver = new JurisdictionResolver(loadSeeds());
const NOW = '2026-11-21T12:00:00.000Z';
const QUIET: MerchantHistory = { recent_symmetric_deltas: [], cashier_sales_in_window: null };

/** Phoenix, AZ: swedish rounding, mandatory. */
const PHOENIX = '85004';
/** Birmingham, AL: symmetrical rounding, permissive. */
const BIRMINGHAM = '35203';

function record(
  sale: Partial<SaleRequest>,
  options: { environment?: KeyEnvironment; history?: MerchantHistory } = {},
): RecordTransaction {
  const full: SaleRequest = { merchant_id: 'm-1', subtotal_cents: 1000, tax_total_cents: 3, payment_method: 'cash', ...sale };
  const location: LocationQuery = { zip_code: full.zip_code, state: full.state, county: full.county, city: full.city, date: NOW.slice(0, 10) };
  return {
    kind: 'RecordTransaction',
    transaction_id: 'TXN-2026-11-21-ABCDEFGH',
    now: NOW,
    environment: options.environment ?? 'sandbox',
    sale: full,
    jurisdiction: resolver.resolve(location),
    history: options.history ?? QUIET,
  };
}

function decided(command: RecordTransaction): TransactionRecorded['data'] {
  const [event] = given(transactionDecider).when(command).then([expect.objectContaining({ type: 'TransactionRecorded' })]);
  return event.data;
}

describe('transaction decider: RecordTransaction', () => {
  it('rounds a cash sale under the rule of the ZIP and passes', () => {
    const data = decided(record({ zip_code: PHOENIX, subtotal_cents: 1000, tax_total_cents: 3, cashier_id: 'c-7' }));
    const expected = roundTender({ payment_method: 'cash', subtotal_cents: 1000, tax_total_cents: 3, mode: 'swedish_rounding' });
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
    });
    expect(expected).toMatchObject({ cash_total_cents: 1005, rounding_delta_cents: 2 });
    expect(data.rule).toMatchObject({ jurisdiction_id: 'US-AZ', enforcement: 'mandatory' });
    expect(data.location.resolved).toMatchObject({ zip: PHOENIX, state: 'AZ', city: 'Phoenix' });
    expect(data.compliance).toEqual({ compliance_status: 'PASS', reasons: [] });
    expect(data.fraud).toEqual({ fraud_score: 0, risk_level: 'NONE', signals: [] });
    expect(data).toMatchObject({ transaction_id: 'TXN-2026-11-21-ABCDEFGH', created_at: NOW, cashier_id: 'c-7', store_id: null });
  });

  it.each([
    ['card', 'Ala. Act 2026-548 (HB 545); Wash. SHB 2334'],
    ['mobile', 'Ala. Act 2026-548 (HB 545); Wash. SHB 2334'],
    ['ebt', '7 CFR 278.2'],
  ] as const)('never rounds a %s sale, and cites why', (payment_method, citation) => {
    const data = decided(record({ zip_code: PHOENIX, payment_method }));
    expect(data.calculation).toMatchObject({
      ledger_total_cents: 1003,
      cash_portion_cents: 0,
      cash_total_cents: 1003,
      rounding_delta_cents: 0,
      rounding_applied: false,
      exemptions: [expect.objectContaining({ tender: payment_method, amount_cents: 1003, citation })],
    });
    expect(data.compliance.compliance_status).toBe('PASS');
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
    expect(data.compliance.reasons.map((r) => r.code)).toEqual(['STATE_ZIP_MISMATCH']);
    expect(data.fraud).toMatchObject({ fraud_score: 20, risk_level: 'LOW' });
  });

  describe('an explicit cash_rounding_mode', () => {
    it('against a mandatory rule fails under a production key', () => {
      const data = decided(record({ zip_code: PHOENIX, cash_rounding_mode: 'mandatory_round_up', tax_total_cents: 1 }, { environment: 'production' }));
      expect(data.calculation).toMatchObject({ cash_rounding_mode: 'mandatory_round_up', mode_source: 'explicit', cash_total_cents: 1005 });
      expect(data.compliance.compliance_status).toBe('FAIL');
      expect(data.compliance.reasons).toEqual([
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
      expect(data.compliance.reasons[0]).toMatchObject({ code: 'EXPLICIT_MODE_CONTRADICTS_MANDATORY_RULE', severity: 'WARN' });
    });

    it('that rounds exactly as the mandatory rule does contradicts nothing, but is still a WARN', () => {
      const data = decided(record({ zip_code: PHOENIX, cash_rounding_mode: 'nearest_nickel' }, { environment: 'production' }));
      expect(data.compliance).toEqual({
        compliance_status: 'WARN',
        reasons: [expect.objectContaining({ code: 'EXPLICIT_ROUNDING_MODE', severity: 'WARN' })],
      });
      expect(data.fraud.fraud_score).toBe(0);
    });

    it('under a permissive rule is a WARN, not a FAIL', () => {
      const data = decided(record({ zip_code: BIRMINGHAM, cash_rounding_mode: 'none' }, { environment: 'production' }));
      expect(data.calculation).toMatchObject({ cash_total_cents: 1003, rounding_delta_cents: 0, rounding_applied: false });
      expect(data.compliance.compliance_status).toBe('WARN');
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
      given(transactionDecider).when(record({ tenders: [...tenders] })).thenThrows(validation('tenders'));
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
      given(transactionDecider).when(record({ is_split_tender: false, tenders: [...tenders] })).thenThrows(validation('is_split_tender'));
    });

    it('a payment_method that is none of the tenders', () => {
      const tenders = [
        { type: 'cash', amount_cents: 3 },
        { type: 'ebt', amount_cents: 1000 },
      ] as const;
      given(transactionDecider).when(record({ payment_method: 'card', tenders: [...tenders] })).thenThrows(validation('payment_method'));
    });

    it('an id that is already recorded', () => {
      const command = record({ zip_code: PHOENIX });
      const [first] = given(transactionDecider).when(command).then([expect.anything()]);
      given(transactionDecider, [first as TransactionRecorded])
        .when(command)
        .thenThrows(expect.objectContaining({ code: 'TRANSACTION_EXISTS', status: 409 }));
    });
  });

  it('evolves to the recorded sale', () => {
    const [event] = given(transactionDecider).when(record({ zip_code: PHOENIX })).then([expect.anything()]);
    expect(transactionDecider.evolve(transactionDecider.initialState(), event)).toEqual({ status: 'recorded', sale: event.data });
  });
});
