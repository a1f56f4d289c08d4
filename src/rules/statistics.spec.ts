import fc from 'fast-check';
import { chiSquareUniform, percentile, ratio, zScore } from './statistics';

const counts = fc.array(fc.nat(1000), { minLength: 10, maxLength: 10 });

describe('chi-square against uniform', () => {
  it('is 0 for equal counts and for no counts', () => {
    expect(chiSquareUniform(Array(10).fill(7))).toBe(0);
    expect(chiSquareUniform(Array(10).fill(0))).toBe(0);
  });

  it('is 9n when all n sales share one ending', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), fc.nat(9), (n, ending) => {
        const all = Array(10).fill(0);
        all[ending] = n;
        expect(chiSquareUniform(all)).toBeCloseTo(9 * n, 6);
      }),
    );
  });

  it('is never negative, ignores the order of the counts and grows in proportion to them', () => {
    fc.assert(
      fc.property(counts, fc.integer({ min: 1, max: 50 }), (c, k) => {
        const x = chiSquareUniform(c);
        expect(x).toBeGreaterThanOrEqual(0);
        expect(chiSquareUniform([...c].reverse())).toBeCloseTo(x, 6);
        expect(chiSquareUniform(c.map((n) => n * k))).toBeCloseTo(x * k, 4);
      }),
    );
  });

  it('equals Σ O²/E − n, the textbook shortcut', () => {
    fc.assert(
      fc.property(counts, (c) => {
        const n = c.reduce((a, b) => a + b, 0);
        fc.pre(n > 0);
        const expected = n / 10;
        expect(chiSquareUniform(c)).toBeCloseTo(c.reduce((sum, o) => sum + (o * o) / expected, 0) - n, 4);
      }),
    );
  });
});

describe('z-score', () => {
  it('is the distance from the mean in standard deviations, or null without variance', () => {
    expect(zScore(15, 10, 5)).toBeCloseTo(2.2361, 4);
    expect(zScore(3, 3, 0)).toBeNull();
  });

  it('of a fair coin is (2·ups − n)/√n', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000 }).chain((n) => fc.tuple(fc.constant(n), fc.integer({ min: 0, max: n }))),
        ([n, ups]) => {
          expect(zScore(ups, n / 2, n / 4)).toBeCloseTo((2 * ups - n) / Math.sqrt(n), 9);
        },
      ),
    );
  });
});

describe('ratio and percentile', () => {
  it('gives a share to 4 decimals within [0, 1], null for nothing to divide by', () => {
    expect(ratio(1, 3)).toBe(0.3333);
    expect(ratio(0, 0)).toBeNull();
    fc.assert(
      fc.property(fc.nat(1000), fc.integer({ min: 1, max: 1000 }), (a, extra) => {
        const r = ratio(a, a + extra)!;
        expect(r).toBeGreaterThanOrEqual(0);
        expect(r).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('takes the nearest rank', () => {
    expect(percentile([], 90)).toBeNull();
    expect(percentile([5], 90)).toBe(5);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 90)).toBe(9);
    expect(percentile([10, 0, 100, 50, 20, 30, 40, 60, 70, 80, 90], 90)).toBe(90);
  });

  it('returns one of the values, with at least p% of them at or below it', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(100), { minLength: 1 }), fc.integer({ min: 1, max: 100 }), (values, p) => {
        const q = percentile(values, p)!;
        expect(values).toContain(q);
        expect(values.filter((v) => v <= q).length / values.length).toBeGreaterThanOrEqual(p / 100);
      }),
    );
  });
});
