/** Money enters as JSON dollars at the tip endpoints and is integer cents everywhere inside. */

import { DomainError } from './errors/domain-error';

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
 * Reads the number as its shortest decimal string, never `x * 100`
 * (`0.07 * 100` is `7.000000000000001`), so the cents are those the caller wrote.
 * A fraction of a cent rounds up, in the employee's favour.
 */
export function dollarsToCents(dollars: number, field = 'amount'): number {
  if (typeof dollars !== 'number' || !Number.isFinite(dollars) || dollars < 0) {
    throw new MoneyError(field, `${field} must be a finite, non-negative number of dollars, got ${String(dollars)}`);
  }
  // String() of a finite non-negative number always has this shape, e.g. '12.5' or '1e-7'.
  const [, whole, fraction = '', exponent = '0'] = DECIMAL.exec(String(dollars))!;
  const digits = BigInt(whole + fraction);
  const centsExponent = Number(exponent) - fraction.length + 2;
  let cents: bigint;
  if (centsExponent >= 0) {
    cents = digits * 10n ** BigInt(centsExponent);
  } else {
    const divisor = 10n ** BigInt(-centsExponent);
    cents = digits / divisor + (digits % divisor === 0n ? 0n : 1n);
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
