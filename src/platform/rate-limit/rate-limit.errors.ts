import { DomainError } from '../errors/domain-error';

export class RateLimitExceededError extends DomainError {
  constructor(limit: number) {
    super('RATE_LIMIT_EXCEEDED', `Rate limit of ${limit} requests per hour exceeded for this API key`, 429);
  }
}

export class AuthenticationFailuresExceededError extends DomainError {
  constructor(limit: number) {
    super(
      'RATE_LIMIT_EXCEEDED',
      `More than ${limit} failed authentications from this address this hour: every request from it is refused until Retry-After`,
      429,
    );
  }
}
