import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';
import { OptionalMerchantId, RECORD_MERCHANT } from '../tip-fields';
import { POOL_ID_PATTERN } from '../tip-ids';

/** `POST /tip/pool/distribute`. */
export class DistributeTipPoolRequest {
  @ApiProperty({
    type: 'string',
    pattern: POOL_ID_PATTERN.source,
    description: 'The pool’s `id`, as creating it answered',
    example: 'POOL-2026-11-21-3QH7Z2MC',
  })
  @IsString()
  @Matches(POOL_ID_PATTERN, { message: 'pool_id must be a pool id such as POOL-2026-01-31-7K3M9QXA' })
  pool_id: string;

  @OptionalMerchantId(RECORD_MERCHANT)
  merchant_id?: string;
}
