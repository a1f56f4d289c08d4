import { DomainError } from '../platform/errors/domain-error';

export class MerchantNotFoundError extends DomainError {
  constructor(merchantId: string) {
    super('NOT_FOUND', `Merchant ${merchantId} not found`, 404);
  }
}

export class MerchantAlreadyExistsError extends DomainError {
  constructor(merchantId: string) {
    super('MERCHANT_ALREADY_EXISTS', `Merchant ${merchantId} already exists`, 409);
  }
}
