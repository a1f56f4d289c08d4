import { Module, type OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../config/config';
import { RateLimiter } from './rate-limiter';
import { MemoryRateLimitStore, RateLimitStore } from './rate-limit-store';

/** Hourly request budgets per API key: in Redis when REDIS_URL is set (shared by all processes), else in memory. */
@Module({
  providers: [
    RateLimiter,
    {
      provide: RateLimitStore,
      inject: [AppConfig],
      useFactory: async (config: AppConfig): Promise<RateLimitStore> => {
        if (!config.redisUrl) return new MemoryRateLimitStore();
        // Loaded only when configured: ioredis is some 45 modules that every start would load for nothing without it.
        const { RedisRateLimitStore } = await import('./redis-rate-limit-store');
        return RedisRateLimitStore.connect(config.redisUrl, config.redisKeyPrefix);
      },
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
