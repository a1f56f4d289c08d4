import { Module } from '@nestjs/common';
import { CommandStep } from './command-step';
import { IdempotencyInterceptor } from './idempotency/idempotency.interceptor';
import { IdempotencyStore } from './idempotency/idempotency';

/** Import it in a feature that takes commands: CommandStep for its handlers, the interceptor for its `Idempotency-Key` routes. */
@Module({
  providers: [IdempotencyStore, IdempotencyInterceptor, CommandStep],
  exports: [IdempotencyStore, IdempotencyInterceptor, CommandStep],
})
export class CommandModule {}
