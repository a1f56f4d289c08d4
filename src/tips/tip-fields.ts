import { applyDecorators } from '@nestjs/common';
import { MinPosition } from '../platform/as-of-position';
import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { IsNumber, IsOptional, IsString, Length, Matches, Max, Min, type ValidationOptions } from 'class-validator';
import { MERCHANT_ID_PATTERN, MERCHANT_ID_PROPERTY, MERCHANT_ID_RULE } from '../merchants/merchant-id';

/** $100,000: far above any tip or payout a point of sale makes, and an obvious typo above it. */
export const MAX_TIP_DOLLARS = 100_000;
/** $1,000 an hour, for wages and average tips. */
export const MAX_HOURLY_DOLLARS = 1_000;

const EMPLOYEE_ID_LENGTH = { min: 1, max: 64 };
const EMPLOYEE_NAME_LENGTH = { min: 1, max: 200 };

/** What a field's documentation says beyond its rule: an example, and its meaning where the name does not tell. */
export interface FieldDoc {
  example: number | string;
  description?: string;
}

/** More than 0, as OpenAPI 3.1 says it (the generator's types still know only 3.0's boolean form). */
export const POSITIVE = { exclusiveMinimum: 0 as unknown as boolean };

/** The property in the OpenAPI document, optional there exactly when it is optional to the validator. */
const documented = (optional: boolean, doc: ApiPropertyOptions) =>
  optional ? [ApiPropertyOptional(doc), IsOptional()] : [ApiProperty(doc)];

/**
 * A dollar amount as a JSON number: finite (JSON's 1e999 parses to Infinity), within `[min, max]`
 * (`positive`: more than 0). Converted to cents by the handler with `dollarsToCents`.
 */
export const Dollars = (
  max: number,
  { positive = false, optional = false, example, description }: FieldDoc & { positive?: boolean; optional?: boolean },
) => {
  const message = (text: string): ValidationOptions => ({ message: `$property ${text}` });
  // Number.MIN_VALUE is the least positive double: `>= MIN_VALUE` is `> 0`.
  const lower = positive ? POSITIVE : { minimum: 0 };
  return applyDecorators(
    ...documented(optional, { type: 'number', ...lower, maximum: max, example, description }),
    IsNumber({ allowNaN: false, allowInfinity: false }, message('must be a finite number of dollars')),
    positive ? Min(Number.MIN_VALUE, message('must be more than 0 dollars')) : Min(0, message('must not be negative')),
    Max(max, message(`must not exceed ${max} dollars`)),
  );
};

/** Employee ids and names are recorded verbatim, as the POS sends them. */
export const EmployeeId = ({ optional = false, description }: { optional?: boolean; description?: string } = {}) =>
  applyDecorators(
    ...documented(optional, {
      type: 'string',
      minLength: EMPLOYEE_ID_LENGTH.min,
      maxLength: EMPLOYEE_ID_LENGTH.max,
      description: description ?? "The point of sale's own employee id, recorded as sent",
      example: 'emp-0042',
    }),
    IsString(),
    Length(EMPLOYEE_ID_LENGTH.min, EMPLOYEE_ID_LENGTH.max),
  );
export const EmployeeName = () =>
  applyDecorators(
    ApiProperty({
      type: 'string',
      minLength: EMPLOYEE_NAME_LENGTH.min,
      maxLength: EMPLOYEE_NAME_LENGTH.max,
      example: 'Ana Ruiz',
    }),
    IsString(),
    Length(EMPLOYEE_NAME_LENGTH.min, EMPLOYEE_NAME_LENGTH.max),
  );

/** Which merchant a tip write acts for when it names a sale, tip or pool (TipMerchants.ownerOf). */
export const RECORD_MERCHANT =
  "Optional: the request acts for the merchant of the record it names. If sent, it must be a merchant the key may act for (403) and the record's own merchant (404 otherwise, as for a missing record).";
/** Which merchant a tip write acts for when it names no record (TipMerchants.actingFor). */
export const ACTING_MERCHANT =
  'The merchant the request acts for: a partner key must send it (400 without it), a merchant key may leave it out. A merchant the key may not act for is a 403.';

/** Not in the spec's bodies: lets a partner key name the merchant, and is checked against the key for any key. */
export const OptionalMerchantId = (description: string) =>
  applyDecorators(
    ApiPropertyOptional({
      ...MERCHANT_ID_PROPERTY,
      description: `${description} ${MERCHANT_ID_PROPERTY.description}.`,
    }),
    IsOptional(),
    IsString(),
    Matches(MERCHANT_ID_PATTERN, { message: MERCHANT_ID_RULE }),
  );

/** Both tip analytics are platform views (admin, auditor); `merchant_id` narrows them to one merchant. */
export class TipAnalyticsScope {
  @OptionalMerchantId('Narrows the answer to one merchant; without it, every merchant.')
  merchant_id?: string;

  @MinPosition()
  min_position?: number;
}
