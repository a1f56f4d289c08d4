/** The arithmetic behind the merchant analyses: pure, so that fast-check can hold it to its laws. */

/** How many standard deviations `observed` lies above its mean; null when there is no variance to measure against. */
export function zScore(observed: number, mean: number, variance: number): number | null {
  return variance > 0 ? (observed - mean) / Math.sqrt(variance) : null;
}

/** Pearson's chi-square of the counts against a uniform spread of their total over them: Σ (O − E)² / E. 0 without counts. */
export function chiSquareUniform(counts: readonly number[]): number {
  const total = counts.reduce((sum, count) => sum + count, 0);
  if (total === 0) return 0;
  const expected = total / counts.length;
  return counts.reduce((sum, count) => sum + (count - expected) ** 2 / expected, 0);
}

/** A share or rate for display, to 4 decimals; null when there is nothing to divide by. */
export function ratio(part: number, whole: number): number | null {
  return whole === 0 ? null : round(part / whole, 4);
}

export function round(value: number, decimals: number): number {
  const scale = 10 ** decimals;
  return Math.round(value * scale) / scale;
}

/** Nearest-rank percentile (the smallest value with at least p% of the values at or below it); null for no values. */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}
