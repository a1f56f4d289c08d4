import { applyDecorators } from '@nestjs/common';
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
import { MERCHANT_ID_PATTERN, MERCHANT_ID_RULE } from '../../merchants/merchant-id';
import { TENDER_TYPES, type RoundingMode, type TenderType } from '../../rounding/rounding-engine';

/** $1 billion: far above any sale, and sums of a few such amounts stay exact integers. */
export const MAX_AMOUNT_CENTS = 100_000_000_000;
export const MAX_TENDERS = 20;

/** The spec's list for the explicit override: nearest_cent and nearest_dime are rule modes only. */
export const EXPLICIT_ROUNDING_MODES = [
  'swedish_rounding',
  'mandatory_round_down',
  'mandatory_round_up',
  'symmetrical_rounding',
  'nearest_nickel',
  'none',
] as const satisfies readonly RoundingMode[];

export const Cents = () =>
  applyDecorators(
    IsInt({ message: '$property must be an integer number of cents' }),
    Min(0, { message: '$property must not be negative' }),
    Max(MAX_AMOUNT_CENTS, { message: `$property must not exceed ${MAX_AMOUNT_CENTS} cents` }),
  );

/** Store, terminal, cashier and employee ids: recorded as sent, so only their length is bounded. */
export const RecordedId = () => applyDecorators(IsString(), Length(1, 64));
const Label = () => applyDecorators(IsOptional(), RecordedId());

export class TenderRequest {
  @IsIn(TENDER_TYPES)
  type: TenderType;

  @Cents()
  amount_cents: number;
}

/** `POST /transaction`. Each field is checked on its own here; how they fit together is the decider's call. */
export class RecordTransactionRequest {
  @IsString()
  @Matches(MERCHANT_ID_PATTERN, { message: MERCHANT_ID_RULE })
  merchant_id: string;

  @Cents()
  subtotal_cents: number;

  @Cents()
  tax_total_cents: number;

  @IsIn(TENDER_TYPES)
  payment_method: TenderType;

  /** ZIP+4 is refused: the ZIP data is by 5-digit ZIP. */
  @IsOptional()
  @IsString()
  @Matches(/^\d{5}$/, { message: 'zip_code must be exactly 5 digits' })
  zip_code?: string;

  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z]{2}$/, { message: 'state must be a two-letter state code' })
  state?: string;

  @IsOptional()
  @IsString()
  @Length(1, 100)
  county?: string;

  @IsOptional()
  @IsString()
  @Length(1, 100)
  city?: string;

  @IsOptional()
  @IsIn(EXPLICIT_ROUNDING_MODES)
  cash_rounding_mode?: RoundingMode;

  @Label()
  store_id?: string;

  @Label()
  terminal_id?: string;

  @Label()
  cashier_id?: string;

  @IsOptional()
  @IsBoolean()
  is_split_tender?: boolean;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_TENDERS)
  @ValidateNested({ each: true })
  @Type(() => TenderRequest)
  tenders?: TenderRequest[];
}
