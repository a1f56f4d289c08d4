import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '../../common/clock';
import { DATABASE, type Database } from '../../event-store/sql';
import { findPoolMerchant } from '../../../projections/tips/tips.projector';
import { tipPoolDecider } from '../tip-pool.decider';
import { TipRecordNotFoundError } from '../tip.errors';
import { tipPoolStream } from '../tip.events';
import { TipLog } from '../tip-log';
import { TipMerchants } from '../tip-merchants';
import { distributionView } from '../tip-view';
import { DistributeTipPoolCommand, type DistributeTipPoolResponse } from './distribute-tip-pool.command';

/** Once per pool: the pool's stream revision makes a concurrent second distribution see the first and answer 409. */
@CommandHandler(DistributeTipPoolCommand)
export class DistributeTipPoolHandler implements ICommandHandler<DistributeTipPoolCommand, DistributeTipPoolResponse> {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly clock: Clock,
    private readonly merchants: TipMerchants,
    private readonly log: TipLog,
  ) {}

  async execute({ request, context, idempotency }: DistributeTipPoolCommand): Promise<DistributeTipPoolResponse> {
    const { pool_id } = request;
    const owner = await findPoolMerchant(this.db, pool_id);
    const merchantId = await this.merchants.ownerOf(context.principal, request.merchant_id, owner, () => new TipRecordNotFoundError('Tip pool', pool_id));
    const command = { kind: 'DistributeTipPool' as const, pool_id, now: this.clock.now().toISOString() };
    return this.log.append({ stream: tipPoolStream(pool_id), decider: tipPoolDecider, command, context, merchantId, idempotency }, (_tx, stored) => ({
      success: true,
      distribution: distributionView(stored),
    }));
  }
}
