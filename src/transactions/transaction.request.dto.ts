import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Length, Matches, Max, Min } from 'class-validator';
import { TRANSACTION_ID_PATTERN } from './transaction-id';

export const TRANSACTION_ID_EXAMPLE = 'TXN-2026-11-21-8F3K2Q7M';

/** $1 billion: far above any sale, and sums of a few such amounts stay exact integers. */
export const MAX_AMOUNT_CENTS = 100_000_000_000;

/** A two-letter state code, in either case. */
export const STATE_CODE_PATTERN = /^[A-Za-z]{2}$/;
/** Store, terminal, cashier and employee ids. */
const RECORDED_ID_LENGTH = { min: 1, max: 64 };

/** What a field's documentation says beyond its rule: an example, and its meaning where the name does not tell. */
export interface FieldDoc {
  example: number | string;
  description?: string;
}

/** An amount in integer cents, 0 to $1 billion; required unless `optional`. */
export const Cents = ({ example, description, optional = false }: FieldDoc & { optional?: boolean }) =>
  applyDecorators(
    ApiProperty({ type: 'integer', minimum: 0, maximum: MAX_AMOUNT_CENTS, example, description, required: !optional }),
    ...(optional ? [IsOptional()] : []),
    IsInt({ message: '$property must be an integer number of cents' }),
    Min(0, { message: '$property must not be negative' }),
    Max(MAX_AMOUNT_CENTS, { message: `$property must not exceed ${MAX_AMOUNT_CENTS} cents` }),
  );

/**
 * Store, terminal, cashier and employee ids: recorded as sent, so only their length is bounded.
 * Required unless `optional`, which makes it both optional to the validator and in the document.
 */
export const RecordedId = ({ example, description, optional = false }: FieldDoc & { optional?: boolean }) => {
  const doc = {
    type: 'string',
    minLength: RECORDED_ID_LENGTH.min,
    maxLength: RECORDED_ID_LENGTH.max,
    example,
    description,
  } as const;
  return applyDecorators(
    ...(optional ? [ApiPropertyOptional(doc), IsOptional()] : [ApiProperty(doc)]),
    IsString(),
    Length(RECORDED_ID_LENGTH.min, RECORDED_ID_LENGTH.max),
  );
};

/** A transaction id in a path or a body; always required. */
export const IsTransactionId = (description?: string) =>
  applyDecorators(
    ApiProperty({
      type: 'string',
      pattern: TRANSACTION_ID_PATTERN.source,
      example: TRANSACTION_ID_EXAMPLE,
      description,
    }),
    IsString(),
    Matches(TRANSACTION_ID_PATTERN, { message: '$property must be a transaction id such as TXN-2026-01-31-7K3M9QXA' }),
  );

/** The `{id}` of a route about one transaction. */
export class TransactionIdParams {
  @IsTransactionId('The transaction id, `TXN-YYYY-MM-DD-XXXXXXXX`')
  id: string;
}
