import fc from 'fast-check';
import { splitPool } from './tip-pool-shares';

/** Up to $10 million a pool, 1 to 40 participants. */
const total = fc.integer({ min: 0, max: 1_000_000_000 });
/** Hours or points as a POS sends them: whole, to the hundredth, or any double. */
const weight = fc.oneof(
  fc.integer({ min: 1, max: 1000 }),
  fc.integer({ min: 1, max: 100_000 }).map((n) => n / 100),
  fc.double({ min: 0.001, max: 1000, noNaN: true }),
);
const weights = fc.array(weight, { minLength: 1, maxLength: 40 });
/** Weights in hundredths, so the test knows each exact fraction as integers without reading any decimal. */
const hundredths = fc.array(fc.integer({ min: 1, max: 100_000 }), { minLength: 1, maxLength: 40 });

describe('splitPool', () => {
  it.each([
    ['three equal ways', 1000, [1, 1, 1], [334, 334, 334]],
    ['an exact split', 900, [1, 1, 1], [300, 300, 300]],
    ['by hours', 10000, [8, 4, 4], [5000, 2500, 2500]],
    ['by fractional hours', 1001, [7.5, 2.5], [751, 251]],
    ['a weighted split', 100, [2, 1], [67, 34]],
    ['an empty pool', 0, [3, 1], [0, 0]],
    ['a single participant', 1234, [0.3], [1234]],
  ])('%s', (_case, cents, ws, expected) => {
    expect(splitPool(cents, ws)).toEqual(expected);
  });

  it('gives every share at least its exact fraction, and less than one cent above it', () => {
    fc.assert(
      fc.property(total, hundredths, (cents, hs) => {
        const shares = splitPool(
          cents,
          hs.map((h) => h / 100),
        );
        const sum = BigInt(hs.reduce((a, b) => a + b, 0));
        // share ≥ cents × h / Σh and share - 1 < cents × h / Σh, multiplied out by Σh.
        return shares.every((share, i) => {
          const exact = BigInt(cents) * BigInt(hs[i]);
          return BigInt(share) * sum >= exact && (BigInt(share) - 1n) * sum < exact;
        });
      }),
    );
  });

  it('distributes at least the pool and less than one cent more per participant; the adjustment is the difference', () => {
    fc.assert(
      fc.property(total, weights, (cents, ws) => {
        const shares = splitPool(cents, ws);
        const adjustment = shares.reduce((a, b) => a + b, 0) - cents;
        return shares.every(Number.isSafeInteger) && adjustment >= 0 && adjustment < ws.length;
      }),
    );
  });

  it('gives equal shares for equal weights', () => {
    fc.assert(
      fc.property(total, weight, fc.integer({ min: 1, max: 40 }), (cents, w, n) => {
        const shares = splitPool(cents, Array(n).fill(w));
        return shares.every((share) => share === shares[0]) && shares[0] === Math.ceil(cents / n);
      }),
    );
  });

  it('depends on the proportions of the weights only', () => {
    fc.assert(
      fc.property(
        total,
        fc.array(fc.integer({ min: 1, max: 1000 }), { minLength: 1, maxLength: 20 }),
        fc.integer({ min: 2, max: 9 }),
        (cents, ws, k) => {
          expect(
            splitPool(
              cents,
              ws.map((w) => w * k),
            ),
          ).toEqual(splitPool(cents, ws));
        },
      ),
    );
  });

  it('gives a larger weight a share at least as large', () => {
    fc.assert(
      fc.property(total, weights, (cents, ws) => {
        const shares = splitPool(cents, ws);
        return ws.every((wi, i) => ws.every((wj, j) => (wi < wj ? shares[i] <= shares[j] : true)));
      }),
    );
  });
});
