import { Inject } from '@nestjs/common';
import { CommandStep } from '../../platform/command-step';
import { eventMetadata } from '../../platform/identity/command-context';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '../../platform/clock';
import { DATABASE, type Database, type Sql } from '../../platform/event-store/sql';
import { findTipsForPool, tipsProjector } from '../read-model/tips.projector';
import { tipChangesAfter } from '../read-model/tip-reads';
import { readCaughtUp } from '../../platform/projections/log-position';
import { tipPoolDecider } from '../tip-pool.decider';
import { PooledTipChangedError, TipAlreadyPooledError, TipRecordNotFoundError } from '../tip.errors';
import { tipPoolStream, type TipPooledData } from '../tip.events';
import { TIP_ID_PREFIX } from '../tip-ids';
import { TipMerchants } from '../tip-merchants';
import { poolView } from '../tip-views';
import { CreateTipPoolCommand } from './create-tip-pool.command';
import type { CreateTipPoolResponse } from './create-tip-pool.response.dto';

/**
 * Tips must exist, be the merchant's (else 404, as if missing) and sit in no pool. They are read
 * from the tips read model once it has applied the log as it was when the command started
 * (readCaughtUp: a tip recorded before is there), and the decider checks them as read. The append
 * re-checks them under the chain-head lock against the entries after the position they were read
 * at: the lock serializes two pools, so of two taking the same tip the second sees the first's
 * entry there and is refused, as is a pool whose tip was adjusted in between.
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
    const { result: found, as_of_position: asOf } = await readCaughtUp(this.db, [tipsProjector], (tx) =>
      findTipsForPool(tx, request.tip_ids),
    );
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
        await assertPooledAsDecided(tx, pool, asOf);
        return { success: true, pool: poolView(pool, pooled) };
      },
    );
  }
}

/** The tips as read at `after`, changed by the entries since: none may be in another pool, or at another amount. */
async function assertPooledAsDecided(tx: Sql, pool: TipPooledData, after: number): Promise<void> {
  const { pooled, amounts } = await tipChangesAfter(
    tx,
    after,
    pool.tips.map((tip) => tip.tip_id),
  );
  const taken = pooled.filter((tip) => tip.pool_id !== pool.pool_id);
  if (taken.length > 0) throw new TipAlreadyPooledError(taken);
  const changed = pool.tips.find((tip) => (amounts.get(tip.tip_id) ?? tip.amount_cents) !== tip.amount_cents);
  if (changed) throw new PooledTipChangedError(changed.tip_id);
}
