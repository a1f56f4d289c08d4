import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { MERCHANT_ID_PATTERN, MERCHANT_ID_RULE } from '../../merchants';
import { TENDER_TYPES, type RoundingMode, type TenderType } from '../../rules/rounding-engine';

/** $1 billion: far above any sale, and sums of a few such amounts stay exact integers. */
export const MAX_AMOUNT_CENTS = 100_000_000_000;
export const MAX_TENDERS = 20;

/** A 5-digit ZIP code: ZIP+4 is refused, the ZIP data is by 5-digit ZIP. */
export const ZIP_CODE_PATTERN = /^\d{5}$/;
/** A two-letter state code, in either case. */
export const STATE_CODE_PATTERN = /^[A-Za-z]{2}$/;
const PLACE_NAME_LENGTH = { min: 1, max: 100 };
/** Store, terminal, cashier and employee ids. */
const RECORDED_ID_LENGTH = { min: 1, max: 64 };

/** The spec's list for the explicit override: nearest_cent and nearest_dime are rule modes only. */
export const EXPLICIT_ROUNDING_MODES = [
  'swedish_rounding',
  'mandatory_round_down',
  'mandatory_round_up',
  'symmetrical_rounding',
  'nearest_nickel',
  'none',
] as const satisfies readonly RoundingMode[];

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
  const doc = { type: 'string', minLength: RECORDED_ID_LENGTH.min, maxLength: RECORDED_ID_LENGTH.max, example, description } as const;
  return applyDecorators(
    ...(optional ? [ApiPropertyOptional(doc), IsOptional()] : [ApiProperty(doc)]),
    IsString(),
    Length(RECORDED_ID_LENGTH.min, RECORDED_ID_LENGTH.max),
  );
};
const Label = (doc: FieldDoc) => RecordedId({ ...doc, optional: true });

export class TenderRequest {
  @ApiProperty({ enum: TENDER_TYPES, example: 'cash' })
  @IsIn(TENDER_TYPES)
  type: TenderType;

  @Cents({ example: 1077 })
  amount_cents: number;
}

/** `POST /transaction`. Each field is checked on its own here; how they fit together is the decider's call. */
export class RecordTransactionRequest {
  @ApiProperty({ type: 'string', pattern: MERCHANT_ID_PATTERN.source, example: 'corner-market-01', description: 'The merchant the sale is recorded for' })
  @IsString()
  @Matches(MERCHANT_ID_PATTERN, { message: MERCHANT_ID_RULE })
  merchant_id: string;

  @Cents({ example: 1000, description: 'Pre-tax subtotal' })
  subtotal_cents: number;

  @Cents({ example: 77, description: 'Tax, computed by the caller on the unrounded subtotal; never recomputed after rounding' })
  tax_total_cents: number;

  @ApiProperty({
    enum: TENDER_TYPES,
    example: 'cash',
    description: 'The tender; only `cash` is rounded. With `tenders`, it must be one of the tenders sent, and is only recorded',
  })
  @IsIn(TENDER_TYPES)
  payment_method: TenderType;

  /** ZIP+4 is refused: the ZIP data is by 5-digit ZIP. */
  @ApiPropertyOptional({
    type: 'string',
    pattern: ZIP_CODE_PATTERN.source,
    example: '85701',
    description: 'Recommended: resolves state, county, city and rule. 5 digits; ZIP+4 is refused',
  })
  @IsOptional()
  @IsString()
  @Matches(ZIP_CODE_PATTERN, { message: 'zip_code must be exactly 5 digits' })
  zip_code?: string;

  @ApiPropertyOptional({ type: 'string', pattern: STATE_CODE_PATTERN.source, example: 'AZ', description: 'Two-letter state code, for use without a ZIP code' })
  @IsOptional()
  @IsString()
  @Matches(STATE_CODE_PATTERN, { message: 'state must be a two-letter state code' })
  state?: string;

  @ApiPropertyOptional({ type: 'string', minLength: PLACE_NAME_LENGTH.min, maxLength: PLACE_NAME_LENGTH.max, example: 'Pima', description: 'Combined with `state`' })
  @IsOptional()
  @IsString()
  @Length(PLACE_NAME_LENGTH.min, PLACE_NAME_LENGTH.max)
  county?: string;

  @ApiPropertyOptional({
    type: 'string',
    minLength: PLACE_NAME_LENGTH.min,
    maxLength: PLACE_NAME_LENGTH.max,
    example: 'Tucson',
    description: 'Combined with `state` and `county`',
  })
  @IsOptional()
  @IsString()
  @Length(PLACE_NAME_LENGTH.min, PLACE_NAME_LENGTH.max)
  city?: string;

  @ApiPropertyOptional({
    enum: EXPLICIT_ROUNDING_MODES,
    example: 'symmetrical_rounding',
    description:
      "For testing only; omit in production. Replaces the rule's mode and makes the sale a `WARN`; a mode that contradicts a mandatory rule is a `FAIL` with a production key",
  })
  @IsOptional()
  @IsIn(EXPLICIT_ROUNDING_MODES)
  cash_rounding_mode?: RoundingMode;

  @Label({ example: 'store-12', description: 'Store location' })
  store_id?: string;

  @Label({ example: 'lane-3', description: 'Recorded in the audit record' })
  terminal_id?: string;

  @Label({ example: 'cashier-207', description: 'Recorded in the audit record, and scored for velocity' })
  cashier_id?: string;

  @ApiPropertyOptional({ type: 'boolean', example: false, description: 'True when payment is split across `tenders`' })
  @IsOptional()
  @IsBoolean()
  is_split_tender?: boolean;

  @ApiPropertyOptional({
    type: [TenderRequest],
    maxItems: MAX_TENDERS,
    description:
      'The payment by tender, adding up to subtotal plus tax; at least two when `is_split_tender` is true. Only the cash portion is rounded (several cash tenders together, once); EBT, card and mobile never are',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_TENDERS)
  @ValidateNested({ each: true })
  @Type(() => TenderRequest)
  tenders?: TenderRequest[];

  @Cents({
    optional: true,
    example: 2000,
    description:
      'The cash the customer handed over (for a split tender, toward its cash part). With it the answer gives `change_due_cents`, a rule that rounds the change rounds it, and a rule with `exact_change_exempt` leaves an exact tender unrounded. Below the cash owed: 400',
  })
  cash_tendered_cents?: number;
}
