import { DomainError } from '../platform/errors/domain-error';

export class MerchantNotFoundError extends DomainError {
  constructor(merchantId: string) {
    super('NOT_FOUND', `Merchant ${merchantId} not found`, 404);
  }
}

/** Also for an id that differs from an existing one only in case: `M-ALPHA` and `m-alpha` would read as one merchant to a person. */
export class MerchantAlreadyExistsError extends DomainError {
  constructor(merchantId: string, existing = merchantId) {
    super(
      'MERCHANT_ALREADY_EXISTS',
      existing === merchantId
        ? `Merchant ${merchantId} already exists`
        : `Merchant ${existing} already exists; ${merchantId} differs from it only in case`,
      409,
    );
  }
}
