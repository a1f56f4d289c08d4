import fc from 'fast-check';
import { BIAS_MIN_SAMPLE, BIAS_WINDOW, scoreFraud, type MerchantHistory, type ScoredSale } from './fraud-score';
import { riskLevelOf } from './fraud-signals';

const CLEAN: ScoredSale = {
  cash_portion_cents: 1003,
  rounding_delta_cents: 2,
  symmetric_mode: true,
  contradicts_mandatory_rule: false,
  explicit_mode_gain_cents: 0,
  zip_state_mismatch: false,
  unverified_jurisdiction: false,
};
const QUIET: MerchantHistory = { recent_symmetric_deltas: [], cashier_sales_in_window: null };

/** `ups` round-ups and `downs` round-downs, newest first. */
const deltas = (ups: number, downs: number) => [...Array(ups).fill(2), ...Array(downs).fill(-2)];
const codes = (sale: Partial<ScoredSale>, history: Partial<MerchantHistory> = {}) =>
  scoreFraud({ ...CLEAN, ...sale }, { ...QUIET, ...history }).signals.map((s) => [s.code, s.points]);

describe('fraud score', () => {
  it('is 0 and NONE for a clean sale without history', () => {
    expect(scoreFraud(CLEAN, QUIET)).toEqual({ fraud_score: 0, risk_level: 'NONE', signals: [] });
  });

  it('weighs each sale signal', () => {
    expect(codes({ contradicts_mandatory_rule: true })).toEqual([['EXPLICIT_MODE_CONTRADICTS_MANDATORY_RULE', 35]]);
    expect(codes({ explicit_mode_gain_cents: 3 })).toEqual([['EXPLICIT_MODE_FAVOURS_MERCHANT', 15]]);
    expect(codes({ explicit_mode_gain_cents: -2 })).toEqual([]);
    expect(codes({ zip_state_mismatch: true })).toEqual([['ZIP_STATE_MISMATCH', 20]]);
    expect(codes({ unverified_jurisdiction: true })).toEqual([['UNVERIFIED_JURISDICTION', 10]]);
  });

  it('does not hold an unverified jurisdiction against a sale that rounding did not change', () => {
    expect(codes({ unverified_jurisdiction: true, rounding_delta_cents: 0 })).toEqual([]);
  });

  it.each([
    [899_999, []],
    [900_000, []],
    [900_001, [['CASH_JUST_BELOW_REPORTING_THRESHOLD', 15]]],
    [1_000_000, [['CASH_JUST_BELOW_REPORTING_THRESHOLD', 15]]],
    [1_000_001, []],
  ])('flags a cash portion of %i cents as structuring: %j', (cash, expected) => {
    expect(codes({ cash_portion_cents: cash })).toEqual(expected);
  });

  describe('round-up bias', () => {
    it.each([
      // n = 20: z = (2·ups − n)/√n
      [14, 6, []], // z = 1.79
      [15, 5, [['ROUND_UP_BIAS', 10]]], // z = 2.24
      [17, 3, [['ROUND_UP_BIAS', 25]]], // z = 3.13
      [19, 1, [['ROUND_UP_BIAS', 40]]], // z = 4.02
      [50, 0, [['ROUND_UP_BIAS', 40]]],
      [0, 50, []],
    ])('%i ups and %i downs: %j', (ups, downs, expected) => {
      expect(codes({ rounding_delta_cents: 0 }, { recent_symmetric_deltas: deltas(ups, downs) })).toEqual(expected);
    });

    it('counts the sale itself as the newest rounding', () => {
      expect(codes({ rounding_delta_cents: 2 }, { recent_symmetric_deltas: deltas(14, 5) })).toEqual([
        ['ROUND_UP_BIAS', 10],
      ]);
      expect(codes({ rounding_delta_cents: -2 }, { recent_symmetric_deltas: deltas(14, 5) })).toEqual([]);
    });

    it(`needs ${BIAS_MIN_SAMPLE} directional roundings before it says anything`, () => {
      expect(codes({}, { recent_symmetric_deltas: deltas(BIAS_MIN_SAMPLE - 2, 0) })).toEqual([]);
      expect(codes({}, { recent_symmetric_deltas: deltas(BIAS_MIN_SAMPLE - 1, 0) })).toEqual([['ROUND_UP_BIAS', 40]]);
    });

    it(`looks at the latest ${BIAS_WINDOW} only`, () => {
      const history = { recent_symmetric_deltas: [...deltas(0, BIAS_WINDOW - 1), ...deltas(500, 0)] };
      expect(codes({}, history)).toEqual([]);
    });

    it('ignores the sale itself when it was not rounded either way under a symmetric mode', () => {
      const history = { recent_symmetric_deltas: deltas(BIAS_MIN_SAMPLE - 1, 0) };
      expect(codes({ rounding_delta_cents: 0 }, history)).toEqual([]);
      expect(codes({ symmetric_mode: false }, history)).toEqual([]);
    });
  });

  it.each([
    [null, []],
    [13, []],
    [14, [['CASHIER_VELOCITY', 10]]],
    [29, [['CASHIER_VELOCITY', 20]]],
  ])('counts the sale itself with %p earlier sales of its cashier: %j', (earlier, expected) => {
    expect(codes({}, { cashier_sales_in_window: earlier })).toEqual(expected);
  });

  it('caps the score at 100', () => {
    const sale = {
      ...CLEAN,
      contradicts_mandatory_rule: true,
      explicit_mode_gain_cents: 5,
      zip_state_mismatch: true,
      cash_portion_cents: 950_000,
    };
    const result = scoreFraud(sale, { recent_symmetric_deltas: deltas(49, 0), cashier_sales_in_window: 40 });
    expect(result.signals.reduce((sum, s) => sum + s.points, 0)).toBe(145);
    expect(result).toMatchObject({ fraud_score: 100, risk_level: 'CRITICAL' });
  });

  it('is a deterministic integer from 0 to 100 whose level matches it', () => {
    const sale = fc.record({
      cash_portion_cents: fc.integer({ min: 0, max: 2_000_000 }),
      rounding_delta_cents: fc.integer({ min: -4, max: 4 }),
      symmetric_mode: fc.boolean(),
      contradicts_mandatory_rule: fc.boolean(),
      explicit_mode_gain_cents: fc.integer({ min: -9, max: 9 }),
      zip_state_mismatch: fc.boolean(),
      unverified_jurisdiction: fc.boolean(),
    });
    const history = fc.record({
      recent_symmetric_deltas: fc.array(fc.constantFrom(-2, -1, 1, 2), { maxLength: BIAS_WINDOW }),
      cashier_sales_in_window: fc.option(fc.nat(100)),
    });
    fc.assert(
      fc.property(sale, history, (s, h) => {
        const result = scoreFraud(s, h);
        expect(Number.isInteger(result.fraud_score)).toBe(true);
        expect(result.fraud_score).toBeGreaterThanOrEqual(0);
        expect(result.fraud_score).toBeLessThanOrEqual(100);
        expect(result.risk_level).toBe(riskLevelOf(result.fraud_score));
        expect(scoreFraud(structuredClone(s), structuredClone(h))).toEqual(result);
      }),
    );
  });
});
