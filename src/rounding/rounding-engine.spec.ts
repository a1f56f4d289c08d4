import fc from 'fast-check';
import { ENFORCED_ROUNDING_RULES, ROUNDING_MODES, RoundingMode, TenderError, roundCents, roundTender } from './rounding-engine';

const NICKEL_MODES: RoundingMode[] = ['nearest_nickel', 'symmetrical_rounding', 'swedish_rounding'];
const cents = fc.integer({ min: -1_000_000_000, max: 1_000_000_000 });
const mode = fc.constantFrom(...ROUNDING_MODES);

/**
 * An independent definition of each mode for a non-negative amount: the change to
 * apply, looked up by the last cent digit (index 0..9), as the laws state it.
 */
const ADJUSTMENT_BY_LAST_DIGIT: Record<RoundingMode, readonly number[]> = {
  nearest_nickel: [0, -1, -2, +2, +1, 0, -1, -2, +2, +1],
  symmetrical_rounding: [0, -1, -2, +2, +1, 0, -1, -2, +2, +1],
  swedish_rounding: [0, -1, -2, +2, +1, 0, -1, -2, +2, +1],
  mandatory_round_down: [0, -1, -2, -3, -4, 0, -1, -2, -3, -4],
  mandatory_round_up: [0, +4, +3, +2, +1, 0, +4, +3, +2, +1],
  nearest_dime: [0, -1, -2, -3, -4, -5, +4, +3, +2, +1],
  nearest_cent: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
  none: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
};

describe('roundCents', () => {
  it('matches the last-digit table for every mode and every amount 0..10,000, and its negation', () => {
    for (const m of ROUNDING_MODES) {
      const table = ADJUSTMENT_BY_LAST_DIGIT[m];
      for (let amount = 0; amount <= 10_000; amount++) {
        const expected = amount + table[Number(String(amount).slice(-1))];
        if (roundCents(amount, m) !== expected || roundCents(-amount, m) !== -expected) {
          throw new Error(`${m}(${amount}) = ${roundCents(amount, m)}, expected ${expected}`);
        }
      }
    }
  });

  it('nickel modes give a multiple of 5 within 2 cents', () => {
    fc.assert(
      fc.property(cents, fc.constantFrom(...NICKEL_MODES), (c, m) => {
        const r = roundCents(c, m);
        return r % 5 === 0 && Math.abs(r - c) <= 2;
      }),
    );
  });

  it('mandatory_round_down moves only down (in magnitude) and mandatory_round_up only up, at most 4 cents', () => {
    fc.assert(
      fc.property(fc.nat(1_000_000_000), (c) => {
        const down = roundCents(c, 'mandatory_round_down');
        const up = roundCents(c, 'mandatory_round_up');
        return down % 5 === 0 && up % 5 === 0 && down <= c && c - down <= 4 && up >= c && up - c <= 4;
      }),
    );
  });

  it('nearest_dime gives a multiple of 10 within 5 cents', () => {
    fc.assert(
      fc.property(cents, (c) => {
        const r = roundCents(c, 'nearest_dime');
        return r % 10 === 0 && Math.abs(r - c) <= 5;
      }),
    );
  });

  it('nearest_cent and none leave the amount unchanged', () => {
    fc.assert(fc.property(cents, (c) => roundCents(c, 'nearest_cent') === c && roundCents(c, 'none') === c));
  });

  it('is idempotent', () => {
    fc.assert(fc.property(cents, mode, (c, m) => roundCents(roundCents(c, m), m) === roundCents(c, m)));
  });

  it('is odd: round(-x) = -round(x)', () => {
    fc.assert(fc.property(cents, mode, (c, m) => roundCents(-c, m) === -roundCents(c, m)));
  });

  it('rejects a non-integer amount and an unknown mode', () => {
    expect(() => roundCents(10.5, 'nearest_nickel')).toThrow(RangeError);
    expect(() => roundCents(Number.MAX_SAFE_INTEGER + 1, 'nearest_nickel')).toThrow(RangeError);
    expect(() => roundCents(10, 'bankers' as RoundingMode)).toThrow(RangeError);
  });
});

describe('roundTender', () => {
  const sale = { subtotal_cents: 1000, tax_total_cents: 82, mode: 'symmetrical_rounding' as const };

  it('rounds a cash sale on the total after tax, without touching the tax', () => {
    expect(roundTender({ ...sale, payment_method: 'cash' })).toEqual({
      ledger_total_cents: 1082,
      cash_portion_cents: 1082,
      cash_total_cents: 1080,
      rounding_delta_cents: -2,
      rounding_applied: true,
    });
  });

  it.each([
    ['card', 'Ala. Act 2026-548 (HB 545); Wash. SHB 2334'],
    ['mobile', 'Ala. Act 2026-548 (HB 545); Wash. SHB 2334'],
    ['ebt', '7 CFR 278.2'],
  ] as const)('never rounds a %s tender', (method, citation) => {
    const result = roundTender({ ...sale, payment_method: method });
    expect(result).toMatchObject({
      ledger_total_cents: 1082,
      cash_portion_cents: 0,
      cash_total_cents: 1082,
      rounding_delta_cents: 0,
      rounding_applied: false,
    });
    expect(result.exemptions).toEqual([expect.objectContaining({ tender: method, amount_cents: 1082, citation })]);
  });

  it('rounds only the cash portion of a cash + ebt + card split', () => {
    const result = roundTender({
      ...sale,
      payment_method: 'cash',
      tenders: [
        { type: 'ebt', amount_cents: 500 },
        { type: 'cash', amount_cents: 283 },
        { type: 'card', amount_cents: 299 },
      ],
    });
    expect(result).toMatchObject({
      ledger_total_cents: 1082,
      cash_portion_cents: 283,
      cash_total_cents: 285,
      rounding_delta_cents: 2,
      rounding_applied: true,
    });
    expect(result.exemptions?.map((e) => [e.tender, e.amount_cents, e.citation])).toEqual([
      ['ebt', 500, '7 CFR 278.2'],
      ['card', 299, 'Ala. Act 2026-548 (HB 545); Wash. SHB 2334'],
    ]);
  });

  it('rounds several cash tenders as one cash payment', () => {
    const result = roundTender({
      ...sale,
      payment_method: 'cash',
      tenders: [
        { type: 'cash', amount_cents: 541 },
        { type: 'cash', amount_cents: 541 },
      ],
    });
    expect(result).toMatchObject({ cash_portion_cents: 1082, cash_total_cents: 1080, rounding_delta_cents: -2 });
  });

  it('reports no rounding under mode none, though the tender is cash', () => {
    expect(roundTender({ ...sale, mode: 'none', payment_method: 'cash' })).toMatchObject({
      cash_total_cents: 1082,
      rounding_delta_cents: 0,
      rounding_applied: false,
    });
  });

  it('rejects tenders that do not add up to subtotal + tax with TENDER_MISMATCH', () => {
    const mismatch = () =>
      roundTender({
        ...sale,
        payment_method: 'cash',
        tenders: [
          { type: 'cash', amount_cents: 500 },
          { type: 'card', amount_cents: 500 },
        ],
      });
    expect(mismatch).toThrow(TenderError);
    expect(mismatch).toThrow(expect.objectContaining({ reason: 'TENDER_MISMATCH', field: 'tenders' }));
    expect(mismatch).toThrow(
      expect.objectContaining({ code: 'VALIDATION_ERROR', status: 400, details: [{ field: 'tenders', messages: [expect.any(String)] }] }),
    );
  });

  it('rejects negative or fractional tenders and amounts', () => {
    const negative = () =>
      roundTender({
        ...sale,
        payment_method: 'cash',
        tenders: [
          { type: 'cash', amount_cents: 1182 },
          { type: 'card', amount_cents: -100 },
        ],
      });
    expect(negative).toThrow(expect.objectContaining({ reason: 'INVALID_AMOUNT', field: 'tenders.1.amount_cents' }));
    expect(() => roundTender({ ...sale, tax_total_cents: 8.5, payment_method: 'cash' })).toThrow(
      expect.objectContaining({ reason: 'INVALID_AMOUNT', field: 'tax_total_cents' }),
    );
  });

  it('keeps cash + non-cash = ledger + delta for any split', () => {
    const split = fc.array(
      fc.record({
        type: fc.constantFrom('cash' as const, 'card' as const, 'ebt' as const, 'mobile' as const),
        amount_cents: fc.nat(100_000),
      }),
      { minLength: 1, maxLength: 5 },
    );
    fc.assert(
      fc.property(split, mode, (tenders, m) => {
        const total = tenders.reduce((sum, t) => sum + t.amount_cents, 0);
        const r = roundTender({ subtotal_cents: total, tax_total_cents: 0, payment_method: 'cash', tenders, mode: m });
        const nonCash = r.ledger_total_cents - r.cash_portion_cents;
        return (
          r.cash_total_cents + nonCash === r.ledger_total_cents + r.rounding_delta_cents &&
          r.cash_total_cents === roundCents(r.cash_portion_cents, m)
        );
      }),
    );
  });

  it('lists each enforced rule with a citation', () => {
    expect(ENFORCED_ROUNDING_RULES).toContainEqual({ citation: '7 CFR 278.2', rule: 'EBT tenders are never rounded' });
    for (const rule of ENFORCED_ROUNDING_RULES) expect(rule.citation.length).toBeGreaterThan(0);
  });
});
