import { IsString, Matches } from 'class-validator';
import { OptionalMerchantId } from '../tip-fields';
import { POOL_ID_PATTERN } from '../tip-ids';

/** `POST /tip/pool/distribute`. */
export class DistributeTipPoolRequest {
  @IsString()
  @Matches(POOL_ID_PATTERN, { message: 'pool_id must be a pool id such as POOL-2026-01-31-7K3M9QXA' })
  pool_id: string;

  @OptionalMerchantId()
  merchant_id?: string;
}
