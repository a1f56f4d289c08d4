import { exactDecimal } from '../rules/money';

/**
 * Splits a pool of `totalCents` by positive weights (hours, or weights as sent; 1 each for an equal
 * split). Share i is the exact `totalCents × wᵢ / Σw` rounded up to the cent, in the employee's
 * favour, so every share is at least its exact fraction and under one cent above it; the employer
 * funds the sum of those sub-cent round-ups. Weights are read as the decimals they were written as
 * (7.5 hours is 75/10), so the fractions are exact rationals, never binary floating point.
 */
export function splitPool(totalCents: number, weights: readonly number[]): number[] {
  if (weights.length === 0) return [];
  const decimals = weights.map(exactDecimal);
  const exponent = Math.min(...decimals.map((d) => d.exponent));
  // Scaled to one common exponent, the weights are integers in the same proportions.
  const scaled = decimals.map((d) => d.digits * 10n ** BigInt(d.exponent - exponent));
  const sum = scaled.reduce((a, b) => a + b, 0n);
  const total = BigInt(totalCents);
  return scaled.map((w) => Number((total * w + sum - 1n) / sum));
}
