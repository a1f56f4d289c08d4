import { Module, type OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../config/config';
import { RateLimiter } from './rate-limiter';
import { MemoryRateLimitStore, RateLimitStore } from './rate-limit-store';
import { RedisRateLimitStore } from './redis-rate-limit-store';

/** Hourly request budgets per API key: in Redis when REDIS_URL is set (shared by all processes), else in memory. */
@Module({
  providers: [
    RateLimiter,
    {
      provide: RateLimitStore,
      inject: [AppConfig],
      useFactory: (config: AppConfig): RateLimitStore | Promise<RateLimitStore> =>
        config.redisUrl ? RedisRateLimitStore.connect(config.redisUrl, config.redisKeyPrefix) : new MemoryRateLimitStore(),
    },
  ],
  exports: [RateLimiter],
})
export class RateLimitModule implements OnApplicationShutdown {
  constructor(private readonly store: RateLimitStore) {}

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}
