import fc from 'fast-check';
import {
  refundCash,
  REFUND_POLICIES,
  roundTender,
  settleCash,
  TenderError,
  TenderTooSmallError,
  type CashTerms,
  type SmallTotalRule,
} from './cash-settlement';
import { ROUNDING_MODES, roundCents, roundsAmounts, type RoundingMode } from './rounding-engine';

const termsOf = (mode: RoundingMode, terms: Partial<CashTerms> = {}): CashTerms => ({
  mode,
  rounds: 'total',
  exact_change_exempt: false,
  small_total: null,
  ...terms,
});

const mode = fc.constantFrom(...ROUNDING_MODES);
const smallTotal = fc.constantFrom<SmallTotalRule | null>(
  null,
  { kind: 'round_up_to_nickel' },
  { kind: 'exempt_up_to', cents: 4 },
);
const terms = fc.record({
  mode,
  rounds: fc.constantFrom('total' as const, 'change' as const),
  exact_change_exempt: fc.boolean(),
  small_total: smallTotal,
});
const cash = fc.integer({ min: 0, max: 10_000_000 });

/** How far a mode may move an amount, at most. */
const REACH: Record<RoundingMode, number> = {
  swedish_rounding: 2,
  symmetrical_rounding: 2,
  nearest_nickel: 2,
  mandatory_round_down: 4,
  mandatory_round_up: 4,
  nearest_dime: 5,
  nearest_cent: 0,
  none: 0,
};

describe('settleCash', () => {
  it('hands back the change so that tendered − change = the cash total, whatever the terms', () => {
    fc.assert(
      fc.property(cash, terms, fc.nat(100_000), (amount, t, extra) => {
        const owed = settleCash(amount, t).cash_total_cents;
        const tendered = Math.max(owed, amount) + extra;
        const settled = settleCash(amount, t, tendered);
        return settled.change_due_cents! >= 0 && tendered - settled.change_due_cents! === settled.cash_total_cents;
      }),
    );
  });

  it('never rounds exact change under exact_change_exempt', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000 }), terms, (amount, t) => {
        const settled = settleCash(amount, { ...t, exact_change_exempt: true }, amount);
        return (
          settled.cash_total_cents === amount && settled.change_due_cents === 0 && settled.rounding_delta_cents === 0
        );
      }),
    );
    expect(settleCash(1103, termsOf('symmetrical_rounding', { exact_change_exempt: true }), 1103)).toEqual({
      cash_total_cents: 1103,
      rounding_delta_cents: 0,
      change_due_cents: 0,
      rounding_exemption: 'exact_change',
    });
    // Without the exemption, exact change of $11.03 still owes $11.05.
    expect(() => settleCash(1103, termsOf('symmetrical_rounding'), 1103)).toThrow(TenderTooSmallError);
  });

  it('moves a total by no more than its mode allows, or a small-total rule up to a nickel', () => {
    fc.assert(
      fc.property(cash, terms, (amount, t) => {
        const { rounding_delta_cents: delta } = settleCash(amount, t);
        const reach = t.small_total?.kind === 'round_up_to_nickel' && amount <= 2 ? 5 - amount : REACH[t.mode];
        return Math.abs(delta) <= reach;
      }),
    );
  });

  it('applies the small-total rules: 1–2¢ become 5¢, or totals up to N¢ are left alone', () => {
    const upToNickel = termsOf('symmetrical_rounding', { small_total: { kind: 'round_up_to_nickel' } });
    expect([1, 2, 3, 4, 6].map((c) => settleCash(c, upToNickel).cash_total_cents)).toEqual([5, 5, 5, 5, 5]);
    expect(settleCash(2, upToNickel).rounding_exemption).toBe('small_total');
    expect(settleCash(3, upToNickel).rounding_exemption).toBeNull();
    const exemptToFour = termsOf('symmetrical_rounding', { small_total: { kind: 'exempt_up_to', cents: 4 } });
    expect([1, 2, 3, 4, 6].map((c) => settleCash(c, exemptToFour).cash_total_cents)).toEqual([1, 2, 3, 4, 5]);
    expect(settleCash(4, exemptToFour).rounding_exemption).toBe('small_total');
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 99 }), fc.integer({ min: 1, max: 10_000 }), mode, (limit, amount, m) => {
        const settled = settleCash(amount, termsOf(m, { small_total: { kind: 'exempt_up_to', cents: limit } }));
        return (
          !roundsAmounts(m) ||
          amount <= limit === (settled.cash_total_cents === amount && settled.rounding_exemption === 'small_total')
        );
      }),
    );
  });

  it('rounds the change under rounds: change, which a tender in whole nickels settles as rounding the total would', () => {
    // Idaho's S1329 and Alabama's Act 2026-548: a $3.02 sale paid with $5.00 hands back $2.00, not $1.98.
    expect(settleCash(302, termsOf('symmetrical_rounding', { rounds: 'change' }), 500)).toEqual({
      cash_total_cents: 300,
      rounding_delta_cents: -2,
      change_due_cents: 200,
      rounding_exemption: null,
    });
    fc.assert(
      fc.property(
        cash,
        fc.constantFrom('symmetrical_rounding' as const, 'nearest_nickel' as const, 'swedish_rounding' as const),
        fc.nat(1000),
        (amount, m, nickels) => {
          const tendered = Math.ceil(amount / 5) * 5 + nickels * 5;
          return (
            settleCash(amount, termsOf(m, { rounds: 'change' }), tendered).cash_total_cents ===
            settleCash(amount, termsOf(m), tendered).cash_total_cents
          );
        },
      ),
    );
  });

  it('refuses a tender below the cash owed, naming the field', () => {
    const short = () => settleCash(1082, termsOf('symmetrical_rounding'), 1079);
    expect(short).toThrow(
      expect.objectContaining({
        status: 400,
        details: [{ field: 'cash_tendered_cents', messages: [expect.stringContaining('1080')] }],
      }),
    );
    expect(() => settleCash(1082, termsOf('symmetrical_rounding', { rounds: 'change' }), 1081)).toThrow(
      TenderTooSmallError,
    );
  });

  it('says why nothing was rounded: no cash, or a rule that rounds nothing', () => {
    expect(settleCash(0, termsOf('symmetrical_rounding')).rounding_exemption).toBe('tender');
    expect(settleCash(1082, termsOf('none')).rounding_exemption).toBe('no_rule');
    expect(settleCash(1082, termsOf('nearest_cent')).cash_total_cents).toBe(1082);
  });
});

describe('refundCash', () => {
  const sale = { whole_sale: false, sale_cash_remaining_cents: 10_000 };

  it('refunds the exact amount under exact_amount (Vermont), rounds it under round_refund, and mirrors a whole-sale refund under mirror_original', () => {
    expect(refundCash(503, 'exact_amount', 'symmetrical_rounding', sale)).toEqual({
      cash_refund_cents: 503,
      rounding_exemption: 'refund_policy',
    });
    expect(refundCash(503, 'round_refund', 'symmetrical_rounding', sale)).toEqual({
      cash_refund_cents: 505,
      rounding_exemption: null,
    });
    expect(refundCash(503, 'mirror_original', 'symmetrical_rounding', sale)).toEqual({
      cash_refund_cents: 505,
      rounding_exemption: null,
    });
    expect(
      refundCash(1102, 'mirror_original', 'symmetrical_rounding', {
        whole_sale: true,
        sale_cash_remaining_cents: 1100,
      }),
    ).toEqual({
      cash_refund_cents: 1100,
      rounding_exemption: null,
    });
  });

  it('moves a refund by no more than the mode allows, and not at all under exact_amount', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.constantFrom(...REFUND_POLICIES),
        mode,
        (amount, policy, m) => {
          const { cash_refund_cents: refunded } = refundCash(amount, policy, m, sale);
          if (policy === 'exact_amount') return refunded === amount;
          return Math.abs(refunded - amount) <= REACH[m] && refunded === roundCents(amount, m);
        },
      ),
    );
  });
});

describe('roundTender', () => {
  const sale = { subtotal_cents: 1000, tax_total_cents: 82, terms: termsOf('symmetrical_rounding') };

  it('rounds a cash sale on the total after tax, without touching the tax', () => {
    expect(roundTender({ ...sale, payment_method: 'cash' })).toEqual({
      ledger_total_cents: 1082,
      cash_portion_cents: 1082,
      cash_total_cents: 1080,
      rounding_delta_cents: -2,
      rounding_applied: true,
      rounding_exemption: null,
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
      rounding_exemption: 'tender',
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
    expect(roundTender({ ...sale, terms: termsOf('none'), payment_method: 'cash' })).toMatchObject({
      cash_total_cents: 1082,
      rounding_delta_cents: 0,
      rounding_applied: false,
      rounding_exemption: 'no_rule',
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
      expect.objectContaining({
        code: 'VALIDATION_ERROR',
        status: 400,
        details: [{ field: 'tenders', messages: [expect.any(String)] }],
      }),
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
        const r = roundTender({
          subtotal_cents: total,
          tax_total_cents: 0,
          payment_method: 'cash',
          tenders,
          terms: termsOf(m),
        });
        const nonCash = r.ledger_total_cents - r.cash_portion_cents;
        return (
          r.cash_total_cents + nonCash === r.ledger_total_cents + r.rounding_delta_cents &&
          r.cash_total_cents === roundCents(r.cash_portion_cents, m)
        );
      }),
    );
  });
});
