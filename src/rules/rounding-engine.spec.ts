import fc from 'fast-check';
import {
  ENFORCED_ROUNDING_RULES,
  leastUnroundedToZero,
  ROUNDING_MODES,
  RoundingMode,
  roundCents,
} from './rounding-engine';

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

describe('leastUnroundedToZero', () => {
  it('is the least positive amount the mode does not round to $0.00, by the last-digit table', () => {
    for (const mode of ROUNDING_MODES) {
      const least = leastUnroundedToZero(mode);
      const table = ADJUSTMENT_BY_LAST_DIGIT[mode];
      expect(least + table[least]).toBeGreaterThan(0);
      for (let below = 1; below < least; below++) expect(below + table[below]).toBe(0);
    }
    expect(Object.fromEntries(ROUNDING_MODES.map((mode) => [mode, leastUnroundedToZero(mode)]))).toMatchObject({
      symmetrical_rounding: 3,
      mandatory_round_down: 5,
      mandatory_round_up: 1,
      nearest_dime: 6,
      none: 1,
    });
  });
});

describe('ENFORCED_ROUNDING_RULES', () => {
  it('lists each enforced rule with a citation', () => {
    expect(ENFORCED_ROUNDING_RULES).toContainEqual({ citation: '7 CFR 278.2', rule: 'EBT tenders are never rounded' });
    for (const rule of ENFORCED_ROUNDING_RULES) expect(rule.citation.length).toBeGreaterThan(0);
  });
});
