import { DomainError } from '../errors/domain-error';

export class RateLimitExceededError extends DomainError {
  constructor(limit: number) {
    super('RATE_LIMIT_EXCEEDED', `Rate limit of ${limit} requests per hour exceeded for this API key`, 429);
  }
}
