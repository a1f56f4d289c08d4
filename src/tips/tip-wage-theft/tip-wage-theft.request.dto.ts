import { OptionalMerchantId } from '../tip-fields';

/** Both tip analytics are platform views (admin, auditor); `merchant_id` narrows them to one merchant. */
export class TipWageTheftRequest {
  @OptionalMerchantId()
  merchant_id?: string;
}
