import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsOptional,
  IsString,
  Length,
  Matches,
  ValidateNested,
} from 'class-validator';
import { MERCHANT_ID_PATTERN, MERCHANT_ID_RULE } from '../../merchants/merchant-id';
import { TENDER_TYPES, type RoundingMode, type TenderType } from '../../rules/rounding-engine';
import { Cents, RecordedId, STATE_CODE_PATTERN, type FieldDoc } from '../transaction.request.dto';

export const MAX_TENDERS = 20;

/** A 5-digit ZIP code: ZIP+4 is refused, the ZIP data is by 5-digit ZIP. */
export const ZIP_CODE_PATTERN = /^\d{5}$/;
const PLACE_NAME_LENGTH = { min: 1, max: 100 };

/** The spec's list for the explicit override: nearest_cent and nearest_dime are rule modes only. */
export const EXPLICIT_ROUNDING_MODES = [
  'swedish_rounding',
  'mandatory_round_down',
  'mandatory_round_up',
  'symmetrical_rounding',
  'nearest_nickel',
  'none',
] as const satisfies readonly RoundingMode[];

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
  @ApiProperty({
    type: 'string',
    pattern: MERCHANT_ID_PATTERN.source,
    example: 'corner-market-01',
    description: 'The merchant the sale is recorded for',
  })
  @IsString()
  @Matches(MERCHANT_ID_PATTERN, { message: MERCHANT_ID_RULE })
  merchant_id: string;

  @Cents({ example: 1000, description: 'Pre-tax subtotal' })
  subtotal_cents: number;

  @Cents({
    example: 77,
    description: 'Tax, computed by the caller on the unrounded subtotal; never recomputed after rounding',
  })
  tax_total_cents: number;

  @ApiProperty({
    enum: TENDER_TYPES,
    example: 'cash',
    description:
      'The tender; only `cash` is rounded. With `tenders`, it must be one of the tenders sent, and is only recorded',
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

  @ApiPropertyOptional({
    type: 'string',
    pattern: STATE_CODE_PATTERN.source,
    example: 'AZ',
    description: 'Two-letter state code, for use without a ZIP code',
  })
  @IsOptional()
  @IsString()
  @Matches(STATE_CODE_PATTERN, { message: 'state must be a two-letter state code' })
  state?: string;

  @ApiPropertyOptional({
    type: 'string',
    minLength: PLACE_NAME_LENGTH.min,
    maxLength: PLACE_NAME_LENGTH.max,
    example: 'Pima',
    description: 'Combined with `state`',
  })
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
