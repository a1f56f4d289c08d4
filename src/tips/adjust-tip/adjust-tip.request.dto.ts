import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length, Matches } from 'class-validator';
import { Dollars, MAX_TIP_DOLLARS, OptionalMerchantId, RECORD_MERCHANT } from '../tip-fields';
import { TIP_ID_PATTERN } from '../tip-ids';

const REASON_LENGTH = { min: 1, max: 500 };

/** `POST /tip/adjust`. A new amount of 0 is allowed: a tip charged back in full. */
export class AdjustTipRequest {
  @ApiProperty({
    type: 'string',
    pattern: TIP_ID_PATTERN.source,
    description: 'The `id` of the tip, as recording it answered',
    example: 'TIP-2026-11-21-7K3M9QXA',
  })
  @IsString()
  @Matches(TIP_ID_PATTERN, { message: 'tip_id must be a tip id such as TIP-2026-01-31-7K3M9QXA' })
  tip_id: string;

  @Dollars(MAX_TIP_DOLLARS, {
    example: 4.25,
    description:
      'The tip’s new amount in dollars (not cents); 0 for a tip charged back in full. A fraction of a cent rounds up.',
  })
  new_amount: number;

  /** Recorded verbatim in the audit trail. */
  @ApiProperty({
    type: 'string',
    minLength: REASON_LENGTH.min,
    maxLength: REASON_LENGTH.max,
    description: 'Recorded verbatim in the audit trail',
    example: 'Guest corrected the tip on the signed slip',
  })
  @IsString()
  @Length(REASON_LENGTH.min, REASON_LENGTH.max)
  reason: string;

  @OptionalMerchantId(RECORD_MERCHANT)
  merchant_id?: string;
}
