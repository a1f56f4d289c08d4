import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { MERCHANT_ID_PATTERN, MERCHANT_ID_RULE } from '../../merchants/merchant-id';
import { TRANSACTION_TYPES, type TransactionType } from '../transaction.events';

export const DEFAULT_LIMIT = 50;
/** DESIGN.md: above it is a 400, not a silent cap, so a client never believes it saw everything. */
export const MAX_LIMIT = 1000;

export class ListTransactionsRequest {
  @IsOptional()
  @IsString()
  @Matches(MERCHANT_ID_PATTERN, { message: MERCHANT_ID_RULE })
  merchant_id?: string;

  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z]{2}$/, { message: 'state must be a two-letter state code' })
  state?: string;

  @IsOptional()
  @IsIn(TRANSACTION_TYPES)
  type?: TransactionType;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_LIMIT)
  limit: number = DEFAULT_LIMIT;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  offset: number = 0;
}
