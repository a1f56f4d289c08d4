import { Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { Environment } from '../identity/principal';
import { Clock } from '../clock';
import { AppConfig } from '../config/config';
import { AuthenticationFailuresExceededError, RateLimitExceededError } from './rate-limit.errors';
import { RateLimitStore } from './rate-limit-store';

const WINDOW_MS = 3_600_000;
/** Addresses this process refuses outright at most: beyond it the oldest block is forgotten (the shared count stays). */
const MAX_BLOCKED_ADDRESSES = 10_000;

/**
 * Fixed windows of one hour, aligned on the hour (UTC): every process computes the same window,
 * so counters in a shared store add up across instances.
 */
@Injectable()
export class RateLimiter {
  /** Client addresses over their budget of failed authentications, to the end of their window (epoch ms), oldest first. */
  private readonly blocked = new Map<string, number>();

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
      void reply.header('retry-after', retryAfter(resetAt, now));
      throw new RateLimitExceededError(limit);
    }
  }

  /**
   * Before a key is looked up: an address that has spent its budget of failed authentications is
   * refused with 429, whatever key it sends, so that guessing keys ends there and costs no lookup.
   */
  refuseBlockedAddress(address: string, reply: FastifyReply): void {
    const until = this.blocked.get(address);
    if (until === undefined) return;
    const now = this.clock.now().getTime();
    if (until <= now) {
      this.blocked.delete(address);
      return;
    }
    void reply.header('retry-after', retryAfter(until, now));
    throw new AuthenticationFailuresExceededError(this.config.authFailuresPerHour);
  }

  /**
   * A missing, unknown or revoked key, counted per client address and hour in the same store as the
   * keys' budgets (shared through Redis): past the budget the address is blocked in this process
   * until the window ends, and any other process blocks it at its own next failure from it.
   */
  async countFailedAuthentication(address: string, reply: FastifyReply): Promise<void> {
    const now = this.clock.now().getTime();
    const windowStart = Math.floor(now / WINDOW_MS) * WINDOW_MS;
    const resetAt = windowStart + WINDOW_MS;
    const count = await this.store.hit(`auth-failures:${address}:${windowStart}`, now, resetAt);
    if (count <= this.config.authFailuresPerHour) return;
    if (this.blocked.size >= MAX_BLOCKED_ADDRESSES) this.blocked.delete(this.blocked.keys().next().value!);
    this.blocked.set(address, resetAt);
    this.refuseBlockedAddress(address, reply);
  }
}

const retryAfter = (until: number, now: number) => Math.max(1, Math.ceil((until - now) / 1000));
