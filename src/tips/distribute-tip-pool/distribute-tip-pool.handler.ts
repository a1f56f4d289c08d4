import { Inject } from '@nestjs/common';
import { CommandStep } from '../../platform/command-step';
import { eventMetadata } from '../../platform/identity/command-context';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '../../platform/clock';
import { DATABASE, type Database } from '../../platform/event-store/sql';
import { poolMerchant } from '../read-model/tip-reads';
import { tipPoolDecider } from '../tip-pool.decider';
import { TipRecordNotFoundError } from '../tip.errors';
import { tipPoolStream } from '../tip.events';
import { TipMerchants } from '../tip-merchants';
import { distributionView } from '../tip-views';
import { DistributeTipPoolCommand } from './distribute-tip-pool.command';
import type { DistributeTipPoolResponse } from './distribute-tip-pool.response.dto';

/** Once per pool: the pool's stream revision makes a concurrent second distribution see the first and answer 409. Decided from the pool's stream alone. */
@CommandHandler(DistributeTipPoolCommand)
export class DistributeTipPoolHandler implements ICommandHandler<DistributeTipPoolCommand, DistributeTipPoolResponse> {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly clock: Clock,
    private readonly merchants: TipMerchants,
    private readonly step: CommandStep,
  ) {}

  async execute({ request, context, idempotency }: DistributeTipPoolCommand): Promise<DistributeTipPoolResponse> {
    const { pool_id: poolId } = request;
    const owner = await poolMerchant(this.db, poolId);
    const merchantId = await this.merchants.ownerOf(
      context.principal,
      request.merchant_id,
      owner,
      () => new TipRecordNotFoundError('Tip pool', poolId),
    );
    const command = { kind: 'DistributeTipPool' as const, pool_id: poolId, now: this.clock.now().toISOString() };
    return this.step.run(
      {
        stream: tipPoolStream(poolId),
        decider: tipPoolDecider,
        command,
        metadata: eventMetadata(context, merchantId),
        idempotency,
      },
      (_tx, stored) => ({
        success: true,
        distribution: distributionView(stored),
      }),
    );
  }
}
