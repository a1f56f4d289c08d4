import { IsString, Length, Matches } from 'class-validator';
import { Dollars, MAX_TIP_DOLLARS, OptionalMerchantId } from '../tip-fields';
import { TIP_ID_PATTERN } from '../tip-ids';

/** `POST /tip/adjust`. A new amount of 0 is allowed: a tip charged back in full. */
export class AdjustTipRequest {
  @IsString()
  @Matches(TIP_ID_PATTERN, { message: 'tip_id must be a tip id such as TIP-2026-01-31-7K3M9QXA' })
  tip_id: string;

  @Dollars(MAX_TIP_DOLLARS)
  new_amount: number;

  /** Recorded verbatim in the audit trail. */
  @IsString()
  @Length(1, 500)
  reason: string;

  @OptionalMerchantId()
  merchant_id?: string;
}
