import { Logger } from '@nestjs/common';
import { Redis } from 'ioredis';
import { MemoryRateLimitStore, RateLimitStore } from './rate-limit-store';

/** INCR and the expiry in one atomic step: a counter can never be left without one. */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count`;

/** A connection with HIT_SCRIPT defined as a command (see the constructor). */
type HitRedis = Redis & { rateLimitHit(key: string, expiryMs: number): Promise<number> };

/** Kept a little past the window's end, so that a process whose clock runs behind still finds the counter. */
const EXPIRY_GRACE_MS = 60_000;

/**
 * A rate-limit check must never hold a request up: Redis answers in well under a millisecond, and
 * while it is away commands fail at once instead of queueing. `disconnectTimeout`: ioredis keeps
 * a timer that long after closing a connection that had already failed, delaying the process exit.
 */
const REDIS_OPTIONS = {
  // The hits of concurrent requests go out in one write, as a pipeline, instead of one each.
  enableAutoPipelining: true,
  lazyConnect: true,
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  commandTimeout: 500,
  connectTimeout: 2000,
  disconnectTimeout: 200,
};

/** Named in Redis's CLIENT LIST, so an operator can tell this service's connections (and a test can count them). */
export const redisConnectionName = (prefix: string) => `${prefix}rate-limit`;

/**
 * Counters shared by every service process through Redis.
 *
 * Fails open, to per-process counting: while Redis cannot be reached the requests are counted in
 * this process's memory (each process then allows up to the full limit), with a warning logged
 * once per outage. A rate limiter that is down must not take point-of-sale rounding down with it.
 */
export class RedisRateLimitStore extends RateLimitStore {
  private readonly logger = new Logger('RateLimit');
  private readonly fallback = new MemoryRateLimitStore();
  private degraded = false;

  private constructor(
    private readonly redis: HitRedis,
    private readonly prefix: string,
  ) {
    super();
    // EVALSHA: each hit sends the script's hash, not its text (ioredis loads it when Redis lacks it).
    redis.defineCommand('rateLimitHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    // Without a listener ioredis prints every failed reconnection attempt with its stack.
    redis.on('error', (error: Error) => this.degrade(error));
  }

  /** Connects before the first request when it can; an unreachable Redis does not stop the service from starting. */
  static async connect(url: string, prefix: string): Promise<RedisRateLimitStore> {
    const redis = new Redis(url, { ...REDIS_OPTIONS, connectionName: redisConnectionName(prefix) });
    const store = new RedisRateLimitStore(redis as HitRedis, `${prefix}ratelimit:`);
    await store.redis.connect().catch((error: Error) => store.degrade(error));
    return store;
  }

  async hit(bucket: string, now: number, expiresAt: number): Promise<number> {
    try {
      const count = await this.redis.rateLimitHit(`${this.prefix}${bucket}`, expiresAt - now + EXPIRY_GRACE_MS);
      if (this.degraded) {
        this.degraded = false;
        this.logger.log('Redis reachable again; rate limits are shared across processes');
      }
      return Number(count);
    } catch (error) {
      this.degrade(error as Error);
      return this.fallback.hit(bucket, now, expiresAt);
    }
  }

  async close(): Promise<void> {
    if (this.redis.status === 'ready') await this.redis.quit().catch(() => this.redis.disconnect());
    else this.redis.disconnect();
  }

  private degrade(error: Error): void {
    if (this.degraded) return;
    this.degraded = true;
    this.logger.warn(`Redis unreachable (${error.message}); counting rate limits per process until it is back`);
  }
}
