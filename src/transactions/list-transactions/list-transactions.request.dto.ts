import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { PageRequest } from '../../platform/page.request.dto';
import { MinPosition } from '../../platform/as-of-position';
import { MERCHANT_ID_PATTERN, MERCHANT_ID_RULE } from '../../merchants/merchant-id';
import { STATE_CODE_PATTERN } from '../transaction.request.dto';
import { TRANSACTION_TYPES, type TransactionType } from '../transaction.events';

const DEFAULT_LIMIT = 50;

/** Paged like every offset list (at most 1,000, a 400 above), with a default page of 50. */
export class ListTransactionsRequest extends PageRequest {
  @ApiPropertyOptional({
    type: 'string',
    pattern: MERCHANT_ID_PATTERN.source,
    example: 'corner-market-01',
    description:
      'Required (else 400) when the key sees several merchants: an auditor key, or a partner key whose partner onboarded several',
  })
  @IsOptional()
  @IsString()
  @Matches(MERCHANT_ID_PATTERN, { message: MERCHANT_ID_RULE })
  merchant_id?: string;

  @ApiPropertyOptional({
    type: 'string',
    pattern: STATE_CODE_PATTERN.source,
    example: 'AZ',
    description: 'Two-letter state code, in either case: only transactions whose location resolved to that state',
  })
  @IsOptional()
  @IsString()
  @Matches(STATE_CODE_PATTERN, { message: 'state must be a two-letter state code' })
  state?: string;

  @ApiPropertyOptional({ enum: TRANSACTION_TYPES, description: 'Only records of this type', example: 'SALE' })
  @IsOptional()
  @IsIn(TRANSACTION_TYPES)
  type?: TransactionType;

  /** The rest of limit's documentation (its bounds) is PageRequest's. */
  @ApiPropertyOptional({
    type: 'integer',
    default: DEFAULT_LIMIT,
    description: 'Items in the page; above 1,000 is a 400',
    example: DEFAULT_LIMIT,
  })
  override limit: number = DEFAULT_LIMIT;

  @MinPosition()
  min_position?: number;
}
