import { OptionalMerchantId } from '../tip-fields';

/** Both tip analytics are platform views (admin, auditor); `merchant_id` narrows them to one merchant. */
export class TipWageTheftRequest {
  @OptionalMerchantId('Narrows the answer to one merchant; without it, every merchant.')
  merchant_id?: string;
}
