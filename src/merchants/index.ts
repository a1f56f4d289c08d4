/** What other features may use of this one: everything else in the folder is its own. */
export { MerchantDirectory } from './merchant-directory';
export { MERCHANT_ID_PATTERN, MERCHANT_ID_PROPERTY, MERCHANT_ID_RULE } from './merchant-id';
export { MerchantNotFoundError } from './merchant.errors';
export { MerchantsModule } from './merchants.module';
export { merchantsProjector } from './read-model/merchants.projector';
