import fc from 'fast-check';
import { MoneyError, centsToDollarsString, dollarsToCents } from './money';

/** Cents below 10^15 have at most 15 significant digits, so their dollar value survives a double exactly. */
const EXACT_CENTS = 10 ** 15 - 1;

describe('dollarsToCents', () => {
  it.each([
    [0, 0],
    [0.07, 7],
    [0.29, 29],
    [1.1, 110],
    [19.99, 1999],
    [1234.5, 123450],
    [0.001, 1],
    [0.011, 2],
    [2.0000001, 201],
    [1e-7, 1],
    [5e-324, 1],
    [1e13, 1e15],
  ])('%p dollars is %p cents', (dollars, cents) => {
    expect(dollarsToCents(dollars)).toBe(cents);
  });

  it.each([
    [-0.01],
    [Number.NaN],
    [Number.POSITIVE_INFINITY],
    [Number.NEGATIVE_INFINITY],
    [1e21],
    ['1.00' as unknown as number],
  ])('rejects %p', (dollars) => {
    expect(() => dollarsToCents(dollars)).toThrow(MoneyError);
  });

  it('names the field in the 400 details', () => {
    expect(() => dollarsToCents(-1, 'tip_amount')).toThrow(
      expect.objectContaining({
        code: 'VALIDATION_ERROR',
        status: 400,
        details: [
          { field: 'tip_amount', messages: ['tip_amount must be a finite, non-negative number of dollars, got -1'] },
        ],
      }),
    );
  });

  it('gives back c for c / 100, for every integer c', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: EXACT_CENTS }), (c) => dollarsToCents(c / 100) === c));
  });

  it('rounds a written fraction of a cent up, and only then', () => {
    // Built as text, so the expected value needs no floating point at all.
    const written = fc.record({
      dollars: fc.nat(99_999_999),
      cents: fc.nat(99),
      subCent: fc.stringMatching(/^\d{1,4}$/),
    });
    fc.assert(
      fc.property(written, ({ dollars, cents, subCent }) => {
        const text = `${dollars}.${String(cents).padStart(2, '0')}${subCent}`;
        const expected = dollars * 100 + cents + (/[1-9]/.test(subCent) ? 1 : 0);
        return dollarsToCents(Number(text)) === expected;
      }),
    );
  });

  it.each([
    [2.129, 212],
    [2.13, 213],
    [0.001, 0],
    [7.25, 725],
  ])('%p dollars rounded down is %p cents', (dollars, cents) => {
    expect(dollarsToCents(dollars, 'hourly_wage', 'down')).toBe(cents);
  });

  it('drops a written fraction of a cent when rounding down', () => {
    const written = fc.record({
      dollars: fc.nat(99_999_999),
      cents: fc.nat(99),
      subCent: fc.stringMatching(/^\d{0,4}$/),
    });
    fc.assert(
      fc.property(written, ({ dollars, cents, subCent }) => {
        const text = `${dollars}.${String(cents).padStart(2, '0')}${subCent}`;
        return dollarsToCents(Number(text), 'amount', 'down') === dollars * 100 + cents;
      }),
    );
  });

  it('stays within one cent above x * 100 for any finite non-negative double', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e12, noNaN: true }), (x) => {
        const c = dollarsToCents(x);
        const slack = x * 100 * Number.EPSILON + 1e-9;
        return Number.isSafeInteger(c) && c >= x * 100 - slack && c < x * 100 + 1 + slack;
      }),
    );
  });
});

describe('centsToDollarsString', () => {
  it.each([
    [0, '0.00'],
    [5, '0.05'],
    [-5, '-0.05'],
    [100, '1.00'],
    [-1234, '-12.34'],
    [123456789, '1234567.89'],
  ])('%p cents is %p', (cents, text) => {
    expect(centsToDollarsString(cents)).toBe(text);
  });

  it('rejects a fraction of a cent', () => {
    expect(() => centsToDollarsString(1.5)).toThrow(RangeError);
  });

  it('round-trips with dollarsToCents for non-negative cents', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: EXACT_CENTS }),
        (c) => dollarsToCents(Number(centsToDollarsString(c))) === c,
      ),
    );
  });
});
