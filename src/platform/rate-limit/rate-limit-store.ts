/** Counts requests per bucket (one key, one window). */
export abstract class RateLimitStore {
  /** Adds one request to the bucket and returns its count; the bucket may be forgotten after `expiresAt` (epoch ms). */
  abstract hit(bucket: string, now: number, expiresAt: number): Promise<number>;
  abstract close(): Promise<void>;
}

/** Buckets kept at most: counters per client address would otherwise grow with every address that sends a bad key. */
const MAX_BUCKETS = 100_000;

/** Counters of this process only: the default without REDIS_URL, and the fallback while Redis is unreachable. */
export class MemoryRateLimitStore extends RateLimitStore {
  private readonly buckets = new Map<string, { count: number; expiresAt: number }>();
  private nextSweep = 0;

  async hit(bucket: string, now: number, expiresAt: number): Promise<number> {
    this.sweep(now);
    const entry = this.buckets.get(bucket);
    if (entry && entry.expiresAt > now) return ++entry.count;
    // Full: the oldest bucket is forgotten, its count starting again, rather than memory growing without end.
    if (!entry && this.buckets.size >= MAX_BUCKETS) this.buckets.delete(this.buckets.keys().next().value!);
    this.buckets.set(bucket, { count: 1, expiresAt });
    return 1;
  }

  async close(): Promise<void> {
    this.buckets.clear();
  }

  /** Drops ended windows once a minute, so that keys seen once do not pile up. */
  private sweep(now: number): void {
    if (now < this.nextSweep) return;
    this.nextSweep = now + 60_000;
    for (const [bucket, entry] of this.buckets) if (entry.expiresAt <= now) this.buckets.delete(bucket);
  }
}
