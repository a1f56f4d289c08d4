/** Money enters as JSON dollars at the tip endpoints and is integer cents everywhere inside. */

import { DomainError } from '../platform/errors/domain-error';

/** A dollar amount the caller must fix: 400 `VALIDATION_ERROR` naming the field. */
export class MoneyError extends DomainError {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super('VALIDATION_ERROR', message, 400, [{ field, messages: [message] }]);
  }
}

const DECIMAL = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/;

/**
 * A finite non-negative number exactly as its shortest decimal string writes it: `digits × 10^exponent`
 * (1.25 is 125 × 10^-2). Arithmetic on these never meets a binary fraction such as `0.07 * 100`.
 */
export function exactDecimal(x: number): { digits: bigint; exponent: number } {
  // String() of a finite non-negative number always has this shape, e.g. '12.5' or '1e-7'.
  const [, whole, fraction = '', exponent = '0'] = DECIMAL.exec(String(x))!;
  return { digits: BigInt(whole + fraction), exponent: Number(exponent) - fraction.length };
}

/**
 * Reads the number as its shortest decimal string, never `x * 100`
 * (`0.07 * 100` is `7.000000000000001`), so the cents are those the caller wrote.
 * A fraction of a cent rounds up, in the employee's favour; `down` is for amounts where rounding up
 * would favour the employer instead (a declared wage that must reach a minimum).
 */
export function dollarsToCents(dollars: number, field = 'amount', rounding: 'up' | 'down' = 'up'): number {
  if (typeof dollars !== 'number' || !Number.isFinite(dollars) || dollars < 0) {
    throw new MoneyError(field, `${field} must be a finite, non-negative number of dollars, got ${String(dollars)}`);
  }
  const { digits, exponent } = exactDecimal(dollars);
  const centsExponent = exponent + 2;
  let cents: bigint;
  if (centsExponent >= 0) {
    cents = digits * 10n ** BigInt(centsExponent);
  } else {
    const divisor = 10n ** BigInt(-centsExponent);
    cents = digits / divisor + (rounding === 'up' && digits % divisor !== 0n ? 1n : 0n);
  }
  if (cents > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new MoneyError(field, `${field} ${String(dollars)} is too large to hold in cents exactly`);
  }
  return Number(cents);
}

/** Cents are computed by the service, never sent by a caller: a fraction here is a bug, hence a RangeError (500), not a 400. */
export function centsToDollarsString(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`cents must be an integer, got ${String(cents)}`);
  const magnitude = String(Math.abs(cents)).padStart(3, '0');
  const sign = cents < 0 ? '-' : '';
  return `${sign}${magnitude.slice(0, -2)}.${magnitude.slice(-2)}`;
}
