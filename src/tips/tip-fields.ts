import { applyDecorators } from '@nestjs/common';
import { IsNumber, IsOptional, IsString, Length, Matches, Max, Min, type ValidationOptions } from 'class-validator';
import { MERCHANT_ID_PATTERN, MERCHANT_ID_RULE } from '../merchants/merchant-id';

/** $100,000: far above any tip or payout a point of sale makes, and an obvious typo above it. */
export const MAX_TIP_DOLLARS = 100_000;
/** $1,000 an hour, for wages and average tips. */
export const MAX_HOURLY_DOLLARS = 1_000;

/**
 * A dollar amount as a JSON number: finite (JSON's 1e999 parses to Infinity), within `[min, max]`.
 * Converted to cents by the handler with `dollarsToCents`.
 */
export const Dollars = (max: number, { positive = false } = {}) => {
  const message = (text: string): ValidationOptions => ({ message: `$property ${text}` });
  return applyDecorators(
    IsNumber({ allowNaN: false, allowInfinity: false }, message('must be a finite number of dollars')),
    positive
      ? Min(Number.MIN_VALUE, message('must be more than 0 dollars'))
      : Min(0, message('must not be negative')),
    Max(max, message(`must not exceed ${max} dollars`)),
  );
};

/** Employee ids and names are recorded verbatim, as the POS sends them. */
export const EmployeeId = () => applyDecorators(IsString(), Length(1, 64));
export const EmployeeName = () => applyDecorators(IsString(), Length(1, 200));

/** Not in the spec's bodies: lets a partner key name the merchant, and is checked against the key for any key. */
export const OptionalMerchantId = () => applyDecorators(IsOptional(), IsString(), Matches(MERCHANT_ID_PATTERN, { message: MERCHANT_ID_RULE }));
