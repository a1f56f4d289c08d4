import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { PageRequest } from '../../common/page.request.dto';
import { MERCHANT_ID_PATTERN, MERCHANT_ID_RULE } from '../../merchants/merchant-id';
import { TRANSACTION_TYPES, type TransactionType } from '../transaction.events';

/** Paged like every offset list (at most 1,000, a 400 above), with a default page of 50. */
export class ListTransactionsRequest extends PageRequest {
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

  override limit: number = 50;
}
