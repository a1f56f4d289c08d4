import { Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { Environment } from '../identity/principal';
import { Clock } from '../clock';
import { AppConfig } from '../config/config';
import { RateLimitExceededError } from './rate-limit.errors';
import { RateLimitStore } from './rate-limit-store';

const WINDOW_MS = 3_600_000;

/**
 * Fixed windows of one hour, aligned on the hour (UTC): every process computes the same window,
 * so counters in a shared store add up across instances.
 */
@Injectable()
export class RateLimiter {
  constructor(
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly store: RateLimitStore,
  ) {}

  /**
   * Counts the request against the key's hourly budget, puts the X-RateLimit-* headers on the
   * reply (error replies keep them too), and throws 429 with Retry-After when the budget is spent.
   */
  async enforce(key: { keyId: string; environment: Environment }, reply: FastifyReply): Promise<void> {
    const now = this.clock.now().getTime();
    const windowStart = Math.floor(now / WINDOW_MS) * WINDOW_MS;
    const resetAt = windowStart + WINDOW_MS;
    const limit = this.config.rateLimitPerHour[key.environment];
    const count = await this.store.hit(`${key.keyId}:${windowStart}`, now, resetAt);
    void reply.headers({
      'x-ratelimit-limit': limit,
      'x-ratelimit-remaining': Math.max(0, limit - count),
      'x-ratelimit-reset': resetAt / 1000,
    });
    if (count > limit) {
      void reply.header('retry-after', Math.max(1, Math.ceil((resetAt - now) / 1000)));
      throw new RateLimitExceededError(limit);
    }
  }
}
