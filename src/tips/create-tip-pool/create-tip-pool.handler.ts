import { Inject } from '@nestjs/common';
import { CommandStep } from '../../platform/command-step';
import { eventMetadata } from '../../platform/identity/command-context';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '../../platform/clock';
import { DATABASE, type Database, type Sql } from '../../platform/event-store/sql';
import { findTipsForPool } from '../read-model/tips.projector';
import { tipPoolDecider } from '../tip-pool.decider';
import { PooledTipChangedError, TipAlreadyPooledError, TipRecordNotFoundError } from '../tip.errors';
import { tipPoolStream, type TipPooledData } from '../tip.events';
import { TIP_ID_PREFIX } from '../tip-ids';
import { TipMerchants } from '../tip-merchants';
import { poolView } from '../tip-views';
import { CreateTipPoolCommand } from './create-tip-pool.command';
import type { CreateTipPoolResponse } from './create-tip-pool.response.dto';

/**
 * Tips must exist, be the merchant's (else 404, as if missing) and sit in no pool. The decider
 * checks the tips as read; the append re-checks them under the chain-head lock, where no other
 * pool or adjustment can slip in between.
 */
@CommandHandler(CreateTipPoolCommand)
export class CreateTipPoolHandler implements ICommandHandler<CreateTipPoolCommand, CreateTipPoolResponse> {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly clock: Clock,
    private readonly merchants: TipMerchants,
    private readonly step: CommandStep,
  ) {}

  async execute({ request, context, idempotency }: CreateTipPoolCommand): Promise<CreateTipPoolResponse> {
    const merchantId = await this.merchants.actingFor(context.principal, request.merchant_id);
    const found = await findTipsForPool(this.db, request.tip_ids);
    const mine = new Map(found.filter((tip) => tip.merchant_id === merchantId).map((tip) => [tip.tip_id, tip]));
    const missing = request.tip_ids.filter((id) => !mine.has(id));
    if (missing.length > 0) throw new TipRecordNotFoundError('Tip', missing);

    const now = this.clock.now();
    return this.step.runNew(
      TIP_ID_PREFIX.pool,
      now,
      (poolId) => {
        const command = {
          kind: 'CreateTipPool' as const,
          pool_id: poolId,
          merchant_id: merchantId,
          pool_name: request.pool_name,
          distribution_method: request.distribution_method,
          participants: request.participants,
          tips: request.tip_ids.map((id) => mine.get(id)!),
          now: now.toISOString(),
        };
        return {
          stream: tipPoolStream(poolId),
          decider: tipPoolDecider,
          command,
          metadata: eventMetadata(context, merchantId),
          idempotency,
        };
      },
      async (tx, [pooled]) => {
        const pool = pooled.data as TipPooledData;
        await assertPooledAsDecided(tx, pool);
        return { success: true, pool: poolView(pool, pooled) };
      },
    );
  }
}

/** Run after the projector: every tip must now be in this pool (no other took it first) at the amount pooled. */
async function assertPooledAsDecided(tx: Sql, pool: TipPooledData): Promise<void> {
  const now = new Map(
    (
      await findTipsForPool(
        tx,
        pool.tips.map((tip) => tip.tip_id),
      )
    ).map((tip) => [tip.tip_id, tip]),
  );
  const taken = pool.tips.map((tip) => now.get(tip.tip_id)!).filter((tip) => tip.pool_id !== pool.pool_id);
  // The projector pooled every tip that was in no pool, so one not in this pool is in another.
  if (taken.length > 0)
    throw new TipAlreadyPooledError(
      taken.map(({ tip_id: tipId, pool_id: poolId }) => ({ tip_id: tipId, pool_id: poolId! })),
    );
  const changed = pool.tips.find((tip) => now.get(tip.tip_id)!.amount_cents !== tip.amount_cents);
  if (changed) throw new PooledTipChangedError(changed.tip_id);
}
