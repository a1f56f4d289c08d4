import { Inject, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { AppConfig } from '../../platform/config/config';
import { READ_MODELS } from '../../platform/event-store/event-store.module';
import { DATABASE, type Database } from '../../platform/event-store/sql';
import type { Projector } from '../../platform/projections/projector';
import { compareWithLog, type ReadModelRowDifference } from '../../platform/projections/read-model-check';
import { ChainAlarms } from '../chain-alarms';
import { VerificationGate, VerificationInProgressError } from '../verification-gate';
import { VerifyReadModelsQuery } from './verify-read-models.query';
import type { ReadModelsCheck } from './verify-read-models.response.dto';

/**
 * Read models checked elsewhere, or not read models alone: `transaction-list` by
 * `GET /admin/verify-transactions`, the rule and policy read models by the rule cache's own check, and
 * `webhook-fan-out`, whose rows are deliveries with a state of their own, not a fold of the log.
 */
const CHECKED_ELSEWHERE = new Set(['transaction-list', 'jurisdiction-rules', 'rounding-policies', 'webhook-fan-out']);
const MAX_LISTED = 100;

/**
 * Replays the log into scratch copies of every other read model and compares them with the stored
 * tables (platform/projections/read-model-check.ts); a difference raises the chain alarm, one per
 * table, naming the row and the field. It costs a replay of the log, so it runs on request and every
 * READ_MODEL_CHECK_S, never on a request's path, and takes a verification's turn.
 */
@QueryHandler(VerifyReadModelsQuery)
export class VerifyReadModelsHandler
  implements IQueryHandler<VerifyReadModelsQuery, ReadModelsCheck>, OnApplicationBootstrap, OnApplicationShutdown
{
  private readonly logger = new Logger('ReadModelCheck');
  private readonly checked: readonly Projector[];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(READ_MODELS) projectors: readonly Projector[],
    private readonly alarms: ChainAlarms,
    private readonly gate: VerificationGate,
    private readonly config: AppConfig,
  ) {
    this.checked = projectors.filter((p) => !CHECKED_ELSEWHERE.has(p.name));
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.periodic(), this.config.readModelCheckS * 1000);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  execute(): Promise<ReadModelsCheck> {
    return this.gate.run('read-models', () => this.verify());
  }

  private async periodic(): Promise<void> {
    try {
      const { difference_count: differenceCount } = await this.execute();
      this.logger.log(`read models checked against the log: ${differenceCount} difference(s)`);
    } catch (error) {
      // Another verification has the turn: the next period checks.
      if (error instanceof VerificationInProgressError) return;
      this.logger.error({ err: error }, 'the read models could not be checked against the log');
    }
  }

  private async verify(): Promise<ReadModelsCheck> {
    const { checked_count: checkedCount, differences } = await compareWithLog(this.db, this.checked);
    const byTable = new Map<string, ReadModelRowDifference[]>();
    for (const difference of differences)
      byTable.set(difference.table, [...(byTable.get(difference.table) ?? []), difference]);
    for (const [table, found] of byTable) {
      const [first] = found;
      const detail =
        `${table} differs from the log in ${found.length} field(s); the first: ${first.row} ${first.field}: ` +
        `stored ${first.stored ?? '(no row)'}, from the log ${first.from_log ?? '(no such row)'}`;
      await this.alarms.raise({ source: 'read-model', kind: `${table}-differs`, position: null, detail });
    }
    return {
      read_models: this.checked.map((p) => p.name),
      checked_count: checkedCount,
      difference_count: differences.length,
      differences: differences.slice(0, MAX_LISTED),
    };
  }
}
